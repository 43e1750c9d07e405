/**
 * The browser SDK served at `GET /sdk/consent-ledger.js` (docs/browser.md): a dependency-free ES
 * module that records a decision with a publishable key and answers the record's id and its public
 * verification link. Kept as text here so that it ships with the compiled service as it is; a
 * browser test runs it in Chromium, and a unit test keeps it under 4 KB gzipped.
 */
export const SDK_SOURCE = `// consent-ledger browser SDK: records consent decisions with a publishable key (docs/browser.md).
const here = new URL(import.meta.url);

/** A refusal from the service: its HTTP status and its error envelope's code, message and details. */
export class ConsentLedgerError extends Error {
  constructor(status, error) {
    super((error && error.message) || 'the consent ledger answered ' + status);
    this.name = 'ConsentLedgerError';
    this.status = status;
    this.code = (error && error.code) || 'HTTP_' + status;
    this.details = error && error.details;
  }
}

/**
 * A client for one publishable key (pk_...). baseUrl: the service's origin; by default the one
 * this module was loaded from. userToken: for a key that needs one, the token your backend signed
 * for the visitor, or a function answering it (called for each decision, so it may fetch a fresh one).
 */
export function consentLedger({ publishableKey, baseUrl = here.origin, userToken } = {}) {
  if (!/^pk_[0-9A-Za-z]{24}$/.test(String(publishableKey))) throw new TypeError('publishableKey must be a pk_ key');
  const endpoint = String(baseUrl).replace(/\\/+$/, '') + '/api/v1/consent';
  return {
    /**
     * Records one decision on the version in force for a purpose (or a policy type, or a given
     * policyVersionId). Resolves to { id, verifyUrl }; rejects with a ConsentLedgerError, or the
     * TypeError of the last try when the call never got an answer. Each decision goes under an
     * Idempotency-Key (idempotencyKey, or a random one), so that a try whose answer was lost on the
     * way and is sent again records once: up to 3 tries, on no answer or a 502, 503 or 504.
     */
    async record({ purpose, policyType, policyVersionId, userReference, consentGiven, metadata, idempotencyKey } = {}) {
      const token = typeof userToken === 'function' ? await userToken() : userToken;
      const body = { userReference, consentGiven };
      if (purpose !== undefined) body.purpose = purpose;
      if (policyType !== undefined) body.policyType = policyType;
      if (policyVersionId !== undefined) body.policyVersionId = policyVersionId;
      if (metadata !== undefined) body.metadata = metadata;
      const headers = { 'content-type': 'application/json', 'x-api-key': publishableKey };
      // getRandomValues, unlike randomUUID, works on a page served over plain http too.
      headers['idempotency-key'] =
        idempotencyKey || 'sdk-' + Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
      if (token) headers['x-user-token'] = token;
      let response;
      for (let tries = 1; ; tries++) {
        try {
          response = await fetch(endpoint, { method: 'POST', mode: 'cors', credentials: 'omit', headers, body: JSON.stringify(body) });
          if (![502, 503, 504].includes(response.status) || tries === 3) break;
        } catch (error) {
          if (tries === 3) throw error;
        }
        await new Promise((done) => setTimeout(done, 400 * tries));
      }
      let answer = null;
      try {
        answer = await response.json();
      } catch {}
      if (!response.ok) throw new ConsentLedgerError(response.status, answer && answer.error);
      return { id: answer.data.id, verifyUrl: answer.data.verifyUrl };
    },
  };
}
`;
