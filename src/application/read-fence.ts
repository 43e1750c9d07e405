/**
 * Read-your-writes (docs/contract.md): resolves once the read models hold every write the tenant
 * made before the call, with true; bounded: after its timeout it resolves anyway, with false, and a
 * read answers from what the read models hold (marked X-Read-Models-Behind). Query services call
 * it before every read-model read; the service wires it to `projections/read-fence.ts`.
 */
export type ReadFence = (tenantId: string) => Promise<boolean>;
