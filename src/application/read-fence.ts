/**
 * Read-your-writes (docs/contract.md): resolves once the read models hold every write the tenant
 * made before the call (bounded: after its timeout it resolves anyway, and the answer comes from
 * what the read models hold). Query services call it before every read-model read; the service
 * wires it to `projections/read-fence.ts`.
 */
export type ReadFence = (tenantId: string) => Promise<void>;
