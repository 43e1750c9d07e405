// Generated from docs/openapi.json by `npm run openapi` (openapi-typescript): do not edit.
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the ledger and the read store answer; any tenant whose log stopped sealing; the witnesses
         * @description 503 NOT_READY when the ledger or the read store does not answer, from the start of a SIGTERM drain (details.draining: true) while the last requests are still served, when keys rotate-master ran while this process ran (details.masterKeyRotated: true; restart it with the new key), and when its checkpoint signing key is no longer the log’s current key, after keys rotate-signing or a process started with another PUBLIC_BASE_URL (details.signingKeyRetired: true; it can seal nothing: restart it with the current key and name).
         */
        get: operations["getReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/verify/{consentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public verification of a receipt (no key)
         * @description The address a receipt’s QR code encodes, and the `verifyUrl` a record made with a publishable key is answered. Other records are not public here. HTML by default; JSON with Accept: application/json. Shows the policy, decision, status and time of a valid record; never the user reference, IP address, user agent or metadata. An unknown id, a malformed id, a record not public here and a wrong hash give the same "not verified" answer. Query parameters other than hash (fbclid, utm_*, which apps add to links) are ignored, and a hash given twice is read once. Rate-limited per client address.
         */
        get: operations["getVerifyByConsentId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/consent-ledger/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public keys that sign the checkpoints, current and retired (no key needed)
         * @description Every key that signed checkpoints, with when it was current. With `tenant`, each key also names the sizes of that tenant's tree it signed: a checkpoint signed by a key outside its sizes is not ours.
         */
        get: operations["getWellKnownConsentLedgerKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ledger/{tenantId}/checkpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The newest signed checkpoint of a tenant's log, with its witnesses' cosignatures (no key needed) */
        get: operations["getLedgerCheckpointByTenantId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ledger/{tenantId}/consistency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Consistency proof between two sizes of a tenant's log (no key needed)
         * @description RFC 9162 §2.1.4, as GET /api/v1/ledger/consistency. A `to` beyond the newest checkpoint answers 409 ROLLBACK: a log that signed that size and holds fewer leaves now was rolled back. 404 as the checkpoint route, for a log with no signed checkpoint.
         */
        get: operations["getLedgerConsistencyByTenantId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ledger/{tenantId}/consents/{consentId}/receipts/{receiptId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inclusion proof of a receipt's issue (its ReceiptIssued event, holding the PDF's SHA-256), no key needed
         * @description What `npx consent-ledger audit receipt FILE.pdf --url` checks a receipt against: the PDF bytes must hash to `event.data.sha256`, and the event must be in the signed log. 404 for a receipt never issued; 409 ROLLBACK when the newest checkpoint no longer covers its sealed leaf.
         */
        get: operations["getLedgerConsentsReceiptsByTenantIdAndConsentIdAndReceiptId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ledger/{tenantId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The gap-free feed of a tenant's sealed leaves (no key needed): what `audit monitor` follows */
        get: operations["getLedgerEventsByTenantId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List policy versions (without content)
         * @description Key scope: admin or write or read.
         */
        get: operations["getPolicies"];
        put?: never;
        /**
         * Publish a policy version
         * @description Key scope: admin.
         */
        post: operations["createPolicies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/policies/active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The active version of a purpose
         * @description As /policies/active/:policyType, for the versions published for a purpose (a defined one, or a policy type for the versions published without one). Key scope: admin or write or read.
         */
        get: operations["getPoliciesActive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/policies/active/{policyType}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The active version of a policy type
         * @description The active version with the latest effectiveDate not in the future; ties go to the highest version. With `purpose`, among the versions of the type published for that purpose (a type of several purposes, such as custom, has an active version for each). Key scope: admin or write or read.
         */
        get: operations["getPoliciesActiveByPolicyType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/policies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a policy version
         * @description The version as its ledger events hold it. 409 POLICY_TAMPERED when those events are not as the service wrote them (a row edited in the database: it no longer hashes and chains, or its authenticator no longer verifies): its text is then not the one published, and is not answered. Key scope: admin or write or read.
         */
        get: operations["getPoliciesById"];
        /**
         * Activate or deactivate a policy version (PUT)
         * @description Key scope: admin.
         */
        put: operations["replacePoliciesById"];
        post?: never;
        /**
         * Delete a policy version
         * @description The version leaves every list; its consents keep their policy details and still verify. Key scope: admin.
         */
        delete: operations["deletePoliciesById"];
        options?: never;
        head?: never;
        /**
         * Activate or deactivate a policy version (PATCH)
         * @description Key scope: admin.
         */
        patch: operations["updatePoliciesById"];
        trace?: never;
    };
    "/api/v1/purposes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the purposes, by key
         * @description Key scope: admin or write or read.
         */
        get: operations["getPurposes"];
        put?: never;
        /**
         * Define a purpose
         * @description Its key names it for good; a key defined before answers 409 PURPOSE_EXISTS. Recorded in the ledger (PurposeDefined) and in the tenant’s transparency log. Key scope: admin.
         */
        post: operations["createPurposes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/purposes/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a purpose
         * @description Key scope: admin or write or read.
         */
        get: operations["getPurposesByKey"];
        /**
         * Change a purpose (PUT)
         * @description Changes the fields given (the key stays); only what differs is recorded (PurposeChanged). 404 for a key never defined. Key scope: admin.
         */
        put: operations["replacePurposesByKey"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a purpose (PATCH)
         * @description Changes the fields given (the key stays); only what differs is recorded (PurposeChanged). 404 for a key never defined. Key scope: admin.
         */
        patch: operations["updatePurposesByKey"];
        trace?: never;
    };
    "/api/v1/consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search consent records (alias of /consent/search)
         * @description Also metadata.<key>=<value> (up to 5, each must match; key: any top-level key of 1 to 64 characters other than ".", percent-encoded): a top-level metadata value whose text equals <value>, whatever its JSON type (metadata.source=web, metadata.step=2). Key scope: admin or read.
         */
        get: operations["getConsent"];
        put?: never;
        /**
         * Record a consent decision
         * @description On a policy version by its id, or on the version in force now for a purpose or a policy type (exactly one of policyVersionId, purpose, policyType). A policy type alone names its own purpose, else its only purpose: with versions of several purposes and none of its own it is 400 VALIDATION_ERROR (give the purpose). A publishable key (from a browser on one of its origins) is answered only the record's id and its public verification link; it may not state ipAddress or userAgent (400: they are the request's), and its Idempotency-Keys are its own (a key another API key used records anew). A publishable key issued with a userTokenKey records only with X-User-Token, a JWT your backend signs for the visitor: 401 UNAUTHORIZED without one that verifies, 403 FORBIDDEN when it names another userReference (docs/browser.md). Key scope: admin or write or publishable.
         */
        post: operations["createConsent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record up to 1,000 decisions, all or nothing
         * @description Each item names its version as a single decision does: policyVersionId, or purpose or policyType for the version in force now (exactly one; for an imported item, with collectedAt, the version that was in force then: the latest effectiveDate at or before it; a policy type alone names its own purpose, else its only one, else the item is refused). Any invalid item refuses the whole batch (400) and error.details.errors lists {index, field, message} for every one. Key scope: admin or write.
         */
        post: operations["batchConsent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/stats/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Records per policy version, and each version’s acceptance rate
         * @description Every version of the tenant (newest first, deleted ones flagged) with its records by what they stand at now (given, rejected, withdrawn, expired) and its acceptance rate: consents given, whatever became of them since, per 100 decisions. Read from the day counters. Key scope: admin or read.
         */
        get: operations["getConsentStatsVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/stats/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Decisions per UTC day, by what they stand at now
         * @description For each day from startDate to endDate (inclusive; at most 366 days; by default the last 30), the decisions made that day split by their status now: given (in force), rejected, withdrawn, expired. An imported record's day is its collectedAt (when the decision was made on the platform it came from), so moved-in history keeps its days; every other record's is its timestamp. Narrowed by purpose or policyType. Read from the day counters: fast at any size. Key scope: admin or read.
         */
        get: operations["getConsentStatsDaily"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Consent statistics (same filters as search)
         * @description Also metadata.<key>=<value> (up to 5, each must match; key: any top-level key of 1 to 64 characters other than ".", percent-encoded): a top-level metadata value whose text equals <value>, whatever its JSON type (metadata.source=web, metadata.step=2). Key scope: admin or read.
         */
        get: operations["getConsentStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search consent records
         * @description Also metadata.<key>=<value> (up to 5, each must match; key: any top-level key of 1 to 64 characters other than ".", percent-encoded): a top-level metadata value whose text equals <value>, whatever its JSON type (metadata.source=web, metadata.step=2). Key scope: admin or read.
         */
        get: operations["getConsentSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export consent records as CSV, or as ISO/IEC TS 27560 records (Starter plan or above)
         * @description format=iso27560: one ISO/IEC TS 27560 JSON-LD record per line (application/x-ndjson, docs/standard-records.md). Otherwise CSV: RFC 4180, header line first, the columns of docs/contract.md (the record's metadata as JSON last). Every value is quoted (an empty cell is null), and text starting with =, +, -, @, tab or CR gets a leading ' so that a spreadsheet opens it as text, whether it splits lines on ',' or on ';'. X-Ledger-Tree-Size, X-Ledger-Root-Hash and X-Ledger-Signed-At name the tenant's newest signed checkpoint whose every event the export reflects (the read models held them when it began, even while they lag behind the ledger; later events may be in it too). `projections verify` checks the read models it is read from. Also metadata.<key>=<value> (up to 5, each must match; key: any top-level key of 1 to 64 characters other than ".", percent-encoded): a top-level metadata value whose text equals <value>, whatever its JSON type (metadata.source=web, metadata.step=2). Key scope: admin or read.
         */
        get: operations["getConsentExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify a consent record (id in the query)
         * @description Key scope: admin or read.
         */
        get: operations["getConsentVerify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/user/{userReference}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's consent records
         * @description Key scope: admin or read.
         */
        get: operations["getConsentUserByUserReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/user/{userReference}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's standing per purpose
         * @description Per purpose (a policy type is its own purpose), the user's latest decision as it stands now: given, rejected, withdrawn, expired or outdated, with the version decided and the version in force; and none for each defined purpose the user has not decided on. With `purpose`, that purpose alone (none when undecided; 400 for a purpose neither defined nor a policy type). Key scope: admin or read.
         */
        get: operations["getConsentUserStatusByUserReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A record's history as the ledger holds it
         * @description Its events (recorded, withdrawn, expired) and its receipts' issues, in ledger order, each with its time, the actor its metadata names, its eventHash and the hash it chains to (prevHash). The events' data stays sealed: read the record for its fields, or /ledger/events for the events. Key scope: admin or read.
         */
        get: operations["getConsentHistoryById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a consent record
         * @description With format=iso27560 (or Accept: application/ld+json), the record as ISO/IEC TS 27560 structures it: a JSON-LD document in the W3C DPV profile (application/ld+json, no envelope; docs/standard-records.md). Key scope: admin or read.
         */
        get: operations["getConsentById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify a consent record
         * @description Recomputes consentHash from the ledger event and checks the event hash chain. Key scope: admin or read.
         */
        get: operations["getConsentVerifyById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/{id}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw a given consent
         * @description The body is optional: an empty POST withdraws without a reason. An admin key is answered the withdrawn record; a write key, which reads no record back, the withdrawal alone ({id, status, withdrawnAt, withdrawalReason}). Key scope: admin or write.
         */
        post: operations["withdrawConsentById"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/user/{userReference}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw a user's standing consent on a purpose or a policy type
         * @description Withdraws the consent the user still stands by on a purpose (purpose), or on every purpose of a policy type (policyType): the latest decision on each, given, not withdrawn, not expired. 409 CONSENT_NOT_WITHDRAWABLE when there is none. 503 SERVICE_UNAVAILABLE (Retry-After: 5) when the read models that list the user's consents lag more than 5 s behind the ledger: nothing is withdrawn. With Idempotency-Key, a repeat answers the first call. A write key is answered each withdrawal alone ({id, status, withdrawnAt, withdrawalReason}), not the records. Key scope: admin or write.
         */
        post: operations["withdrawConsentUserByUserReference"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/user/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw a user's standing consent, the reference in the body
         * @description Withdraws the consent the user still stands by on a purpose (purpose), or on every purpose of a policy type (policyType): the latest decision on each, given, not withdrawn, not expired. 409 CONSENT_NOT_WITHDRAWABLE when there is none. 503 SERVICE_UNAVAILABLE (Retry-After: 5) when the read models that list the user's consents lag more than 5 s behind the ledger: nothing is withdrawn. With Idempotency-Key, a repeat answers the first call. A write key is answered each withdrawal alone ({id, status, withdrawnAt, withdrawalReason}), not the records. The same as POST /consent/user/{userReference}/withdraw, without encoding the reference. Key scope: admin or write.
         */
        post: operations["withdrawConsentUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/reconsent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The subjects a purpose (or every purpose) must ask for consent again
         * @description Standing decisions (not withdrawn, not expired) on a version before the newest version in force that requires re-consent, oldest version first; without purpose, every purpose in turn, by key. A page as JSON, or every one as CSV with format=csv or Accept: text/csv (Starter plan or above, as the export). Key scope: admin or read.
         */
        get: operations["getConsentReconsent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/{id}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The latest PDF receipt of a consent record
         * @description The stored bytes of the latest receipt; 404 RECEIPT_NOT_FOUND when none was generated. Key scope: admin or read.
         */
        get: operations["getConsentPdfById"];
        put?: never;
        /**
         * Generate a PDF receipt of a consent record
         * @description Renders the record as the ledger holds it now (a withdrawn consent says so), stores the PDF, records the issue in the ledger (ReceiptIssued) and answers the PDF. Each call issues a new receipt; GET answers the latest. A record that fails the checks GET /consent/:id/verify runs (personal fields that do not open, an event the service did not append, a broken chain) gets none: 409 CONSENT_TAMPERED. Laid out on a thread of its own; a layout that takes over 20 s is given up: 422 RECEIPT_TOO_LARGE, nothing issued. Key scope: admin or read.
         */
        post: operations["pdfConsentById"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subjects/{userReference}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a data subject's personal data (GDPR Art. 17)
         * @description Destroys the data keys of the subject's records (crypto-shredding), records SubjectErased, deletes their stored receipts and clears their webhook payloads, and emits subject.erased. Their records remain with decision, time and consentHash; personal fields become null and verify answers erased. Idempotent: a repeat answers the same erasure. Percent-encode the reference (`/` as %2F, `?` as %3F, `%` as %25); or send it in the body to POST /subjects/erase. Key scope: admin.
         */
        post: operations["eraseSubjectsByUserReference"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subjects/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a data subject's personal data, the reference in the body
         * @description Destroys the data keys of the subject's records (crypto-shredding), records SubjectErased, deletes their stored receipts and clears their webhook payloads, and emits subject.erased. Their records remain with decision, time and consentHash; personal fields become null and verify answers erased. Idempotent: a repeat answers the same erasure. The same as POST /subjects/{userReference}/erase, without encoding the reference. Key scope: admin.
         */
        post: operations["eraseSubjects"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List this tenant's API keys (never their secrets)
         * @description Key scope: admin.
         */
        get: operations["getKeys"];
        put?: never;
        /**
         * Issue an API key of this tenant
         * @description The body is optional: without a scope the key is an admin key; without expiresAt it never expires. A publishable key (scope publishable, `pk_…`, no secret) lists the origins it may be used from, may set its own budget per minute, and may name the Ed25519 key its user tokens are signed by, so that it records only for the user a token names (docs/browser.md). Key scope: admin.
         */
        post: operations["createKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/{apiKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key of this tenant (at once, on every process)
         * @description Key scope: admin.
         */
        delete: operations["deleteKeysByApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Key scope: admin.
         */
        get: operations["getWebhooks"];
        put?: never;
        /**
         * Register a webhook
         * @description The secret (given or generated) is answered once, here; save it to verify deliveries. Key scope: admin.
         */
        post: operations["createWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description Key scope: admin.
         */
        get: operations["getWebhooksById"];
        /**
         * Activate, deactivate or change the events of a webhook (PUT)
         * @description Re-activating starts from now: events recorded while inactive are not sent. Deactivating cancels pending deliveries. Key scope: admin.
         */
        put: operations["replaceWebhooksById"];
        post?: never;
        /**
         * Delete a webhook
         * @description Key scope: admin.
         */
        delete: operations["deleteWebhooksById"];
        options?: never;
        head?: never;
        /**
         * Activate, deactivate or change the events of a webhook (PATCH)
         * @description Re-activating starts from now: events recorded while inactive are not sent. Deactivating cancels pending deliveries. Key scope: admin.
         */
        patch: operations["updateWebhooksById"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delivery history: every attempt, newest first
         * @description Key scope: admin.
         */
        get: operations["getWebhooksDeliveriesById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description A delivery the receiver missed, failed or lost (its deliveryId is in the history) is pending again and sent now, its stored payload (same event id) signed afresh, if its row is still as the service wrote it (docs/webhooks.md, Sealed deliveries); a failed attempt is retried on the usual schedule while the delivery has had fewer than five, else it is failed again. 404 for a delivery not of this webhook or pruned from the history; 409 WEBHOOK_INACTIVE for an inactive webhook; 409 DELIVERY_PENDING for one pending already. Key scope: admin.
         */
        post: operations["createWebhooksDeliveriesRedeliverByIdAndDeliveryId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed webhook.test delivery now
         * @description Recorded in the delivery history. Sent whether the webhook is active or not. Key scope: admin.
         */
        post: operations["testWebhooksById"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ledger/checkpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The newest signed checkpoint of the tenant's log
         * @description Key scope: admin or read.
         */
        get: operations["getLedgerCheckpoint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/{id}/proof": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inclusion proof of a consent record in the newest signed checkpoint (the newest the witnesses' quorum cosigned, with WITNESSES)
         * @description The record’s ConsentRecorded event, its eventHash and leaf index, and the RFC 9162 inclusion path to the root the signed checkpoint states. A record is provable within a second of its write; 503 PROOF_NOT_READY (with Retry-After) if the log lags more. 409 ROLLBACK when the newest checkpoint no longer covers the record’s sealed leaf (checkpoints deleted); 409 SEALING_HALTED when the tenant’s sealing stopped at a foreign event before it; 409 LOG_INCOMPLETE when the sealer read past the record but the log holds no leaf of it and no halt holds it back (the transparency tables were changed). Key scope: admin or read.
         */
        get: operations["getConsentProofById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ledger/consistency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Consistency proof between two tree sizes
         * @description RFC 9162 §2.1.4: proves the tree of `from` leaves is a prefix of the tree of `to` leaves. 1 ≤ from ≤ to ≤ the newest checkpoint’s size; a `to` beyond it answers 409 ROLLBACK (its message gives the size): a log that signed that size and holds fewer leaves now was rolled back. Key scope: admin or read.
         */
        get: operations["getLedgerConsistency"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ledger/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The auditor's gap-free feed of the tenant's log
         * @description Sealed leaves with leafIndex > after, in order (after = -1, the default, starts at leaf 0). Ask again with the last leafIndex until the answer is empty. Key scope: admin or read.
         */
        get: operations["getLedgerEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's configuration changes, who made them, when
         * @description Keys issued, revoked or expired; plan and limit changes; webhooks created, changed or deleted; purposes and policy versions; erasures; master and signing key rotations. Each is a ledger event in the tenant's log, hashed, chained and sealed into its transparency log (its proof: /audit-log/{id}/proof). A page as JSON, newest first; or every matching entry as CSV, oldest first, with format=csv or Accept: text/csv. Key scope: admin or read.
         */
        get: operations["getAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-log/{id}/proof": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inclusion proof of an audit log entry's event in the newest signed checkpoint
         * @description The entry’s ledger event, its eventHash and leaf index, and the RFC 9162 inclusion path to the root the signed checkpoint states: checked as a consent’s proof is (docs/verifying.md). 409 ROLLBACK when the newest checkpoint no longer covers its sealed leaf. Key scope: admin or read.
         */
        get: operations["getAuditLogProofById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sdk/consent-ledger.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The browser SDK: an ES module that records decisions with a publishable key
         * @description Dependency-free, under 4 KB gzipped: `import { consentLedger } from "https://ledger.example.com/sdk/consent-ledger.js"; await consentLedger({ publishableKey }).record({ purpose, userReference, consentGiven, metadata })` answers `{ id, verifyUrl }` (docs/browser.md). Loadable cross-origin from the origins a publishable key allows.
         */
        get: operations["getSdkConsentLedgerJs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The console session: its key, scope, tenant and CSRF token */
        get: operations["getConsoleSession"];
        put?: never;
        /**
         * Sign in to the console with an API key and secret (scope read or admin)
         * @description Sets an HttpOnly, SameSite=Strict session cookie (Secure over HTTPS) lasting 8 hours; the session then acts as the key on /api/v1, and every call that changes anything must send X-CSRF-Token.
         */
        post: operations["createConsoleSession"];
        /** Sign out of the console (send X-CSRF-Token) */
        delete: operations["deleteConsoleSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/backup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stream a backup of the running embedded store
         * @description A consistent archive (tar.gz) of the embedded store, taken while the service keeps answering: PostgreSQL's online base backup (the files, then the WAL written meanwhile, replayed on restore). It holds every event acknowledged before it ends. It holds NO key: restoring (`npx consent-ledger restore --from FILE --data-dir DIR`) needs the master and signing key files the store was created with; keep them backed up apart. One backup at a time (409 BACKUP_IN_PROGRESS); on a PostgreSQL server use pg_dump (409 BACKUP_NOT_AVAILABLE). Once the response is sent whole the backup is recorded (metric consent_ledger_backup_last_success_timestamp_seconds); a download cut off is not. See docs/operations.md, Backups.
         */
        post: operations["createAdminBackup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tenants and their keys */
        get: operations["getAdminTenants"];
        put?: never;
        /** Create a tenant and its first API key */
        post: operations["createAdminTenants"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a tenant's plan or its own limits */
        patch: operations["updateAdminTenantsById"];
        trace?: never;
    };
    "/admin/v1/tenants/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue another API key
         * @description The body is optional: without a scope the key is an admin key; without expiresAt it never expires.
         */
        post: operations["createAdminTenantsKeysById"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tenants/{id}/keys/{apiKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: operations["deleteAdminTenantsKeysByIdAndApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics in the Prometheus text format (needs ADMIN_TOKEN)
         * @description Requests and latency per route and status, ledger appends and group sizes, each follower's lag, webhook queue and attempts, rate-limit refusals, the oldest transaction on a PostgreSQL server, process and event-loop figures (docs/operations.md).
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorEnvelope: {
            /** @enum {boolean} */
            success: false;
            error: {
                code: string;
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
            meta: {
                /** Format: date-time */
                timestamp: string;
            } & {
                [key: string]: unknown;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Requests allowed per minute */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the current minute */
        "X-RateLimit-Remaining": number;
        /** @description Unix time (seconds) at which the minute window resets */
        "X-RateLimit-Reset": number;
        /** @description Requests allowed per UTC day */
        "X-RateLimit-Daily-Limit": number;
        /** @description Requests left in the current UTC day */
        "X-RateLimit-Daily-Remaining": number;
        /** @description Unix time (seconds) at which the UTC day resets */
        "X-RateLimit-Daily-Reset": number;
        /** @description Seconds to wait before trying again */
        "Retry-After": number;
        /** @description Sent, as `true`, when the answer is a replay: an earlier request with the same Idempotency-Key and body was answered this, and nothing was written again */
        "Idempotent-Replayed": "true";
        /** @description A file to save (attachment), or a receipt to show (inline), with its file name */
        "Content-Disposition": string;
        /** @description Sent, as `true`, only when the answer was read from read models that did not yet hold every write the tenant made before the request (the read fence waited 5 s for them and gave up): a write just made may be missing from it; read again shortly */
        "X-Read-Models-Behind": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "status": "ok"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @enum {string} */
                            status: "ok";
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "status": "ready",
                     *         "ledger": true,
                     *         "readStore": true,
                     *         "sealing": {
                     *           "halted": [
                     *             {
                     *               "tenantId": "string",
                     *               "eventId": "string",
                     *               "position": {
                     *                 "commit": 1,
                     *                 "prepare": 1
                     *               },
                     *               "reason": "string",
                     *               "haltedAt": "2026-11-26T09:30:00.000Z"
                     *             }
                     *           ]
                     *         },
                     *         "witnesses": {
                     *           "quorum": 1,
                     *           "quorumReached": true,
                     *           "witnesses": [
                     *             {
                     *               "name": "string",
                     *               "vkey": "string",
                     *               "url": "string",
                     *               "failing": [
                     *                 {
                     *                   "tenantId": "string",
                     *                   "error": "string",
                     *                   "since": "2026-11-26T09:30:00.000Z"
                     *                 }
                     *               ]
                     *             }
                     *           ],
                     *           "belowQuorum": [
                     *             {
                     *               "tenantId": "string",
                     *               "treeSize": 1,
                     *               "cosignatures": 1,
                     *               "signedAt": "2026-11-26T09:30:00.000Z"
                     *             }
                     *           ]
                     *         },
                     *         "readModels": {
                     *           "verifiedAt": "2026-11-26T09:30:00.000Z",
                     *           "consistent": true,
                     *           "position": {
                     *             "commit": 1,
                     *             "prepare": 1
                     *           },
                     *           "drift": [
                     *             {
                     *               "table": "string",
                     *               "missing": 1,
                     *               "extra": 1,
                     *               "changed": 1
                     *             }
                     *           ]
                     *         }
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @enum {string} */
                            status: "ready";
                            ledger: boolean;
                            readStore: boolean;
                            /** @description Tenants whose transparency log stopped sealing at an event the service did not append (or whose time goes back), or because its tree or held events in the transparency tables were changed outside the service: the event's id, ledger position and why (docs/verifying.md). The service stays ready for the others. */
                            sealing: {
                                halted: {
                                    tenantId: string;
                                    eventId: string;
                                    position: {
                                        commit: number;
                                        prepare: number;
                                    };
                                    reason: string;
                                    /** Format: date-time */
                                    haltedAt: string;
                                }[];
                            };
                            /** @description The witnesses (WITNESSES) that cosign checkpoints; null when none is configured. The service stays ready without them. */
                            witnesses: {
                                /** @description how many witnesses must cosign each checkpoint (WITNESS_QUORUM) */
                                quorum: number;
                                /** @description false while some tenant's newest checkpoint (signed more than 5 s ago) lacks the quorum's cosignatures */
                                quorumReached: boolean;
                                witnesses: {
                                    name: string;
                                    vkey: string;
                                    url: string;
                                    /** @description tenants this witness last refused or could not be reached for; a ROLLBACK error means it cosigned a larger tree */
                                    failing: {
                                        tenantId: string;
                                        error: string;
                                        /** Format: date-time */
                                        since: string;
                                    }[];
                                }[];
                                /** @description tenants whose newest checkpoint, signed more than 5 s ago, has fewer cosignatures than the quorum */
                                belowQuorum: {
                                    tenantId: string;
                                    treeSize: number;
                                    cosignatures: number;
                                    /** Format: date-time */
                                    signedAt: string;
                                }[];
                            } | null;
                            /** @description The last scheduled comparison of the read models with a replay of the ledger (PROJECTIONS_VERIFY_MINUTES); null before the first or when none is scheduled. `npx consent-ledger projections verify` names the rows. */
                            readModels: {
                                /** Format: date-time */
                                verifiedAt: string;
                                consistent: boolean;
                                position: {
                                    commit: number;
                                    prepare: number;
                                } | null;
                                /** @description per read table, the rows that are not what a replay of the ledger gives */
                                drift: {
                                    table: string;
                                    missing: number;
                                    extra: number;
                                    changed: number;
                                }[];
                            } | null;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getVerifyByConsentId: {
        parameters: {
            query?: {
                hash?: string;
            };
            header?: never;
            path: {
                consentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verdict */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "valid": true,
                     *         "erased": true,
                     *         "tampered": true,
                     *         "consentId": "string",
                     *         "policy": {
                     *           "title": "string",
                     *           "type": "string",
                     *           "version": "string"
                     *         },
                     *         "consentGiven": true,
                     *         "status": "active",
                     *         "timestamp": "2026-11-26T09:30:00.000Z",
                     *         "collectedAt": "2026-11-26T09:30:00.000Z",
                     *         "withdrawnAt": "2026-11-26T09:30:00.000Z",
                     *         "log": {
                     *           "included": true,
                     *           "leafIndex": 1,
                     *           "treeSize": 1,
                     *           "rootHash": "string"
                     *         },
                     *         "verifiedAt": "2026-11-26T09:30:00.000Z"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @description Not verified (unknown id, malformed id or wrong hash): valid, erased and tampered false, every detail null. */
                        data: {
                            valid: boolean;
                            /** @description The ledger holds this record with this hash, but the data subject was erased: the personal fields its hash covers were destroyed, so it cannot be recomputed. The policy, decision, time and log position remain; valid is false. */
                            erased: boolean;
                            /** @description The ledger holds this record with this hash (or a receipt of it was issued with this hash), but its events fail their checks (an event the service did not append, an event changed in place so that the events no longer chain, an event the signed log holds removed, or personal fields that no longer open with their key): do not rely on it. Every detail is null; valid is false. */
                            tampered: boolean;
                            /** @description The id as asked */
                            consentId: string;
                            policy: {
                                title: string;
                                type: string;
                                version: string;
                            } | null;
                            consentGiven: boolean | null;
                            status: "active" | "withdrawn" | "expired" | (never | null);
                            /** Format: date-time */
                            timestamp: string | null;
                            /**
                             * Format: date-time
                             * @description An imported record only: when the decision was made, on the platform it was moved from (timestamp is when it was recorded here)
                             */
                            collectedAt?: string;
                            /** Format: date-time */
                            withdrawnAt: string | null;
                            /** @description Where a valid record sits in the signed transparency log; null when not verified or not sealed yet */
                            log: {
                                /** @description the record's inclusion proof leads to the newest signed checkpoint's root */
                                included: boolean;
                                leafIndex: number;
                                treeSize: number;
                                rootHash: string;
                            } | null;
                            /** Format: date-time */
                            verifiedAt: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWellKnownConsentLedgerKeys: {
        parameters: {
            query?: {
                /** @description a tenant id: add each key's signed tree sizes of its log */
                tenant?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "keys": [
                     *         {
                     *           "keyName": "string",
                     *           "keyId": "string",
                     *           "publicKey": "string",
                     *           "vkey": "string",
                     *           "timestampVkey": "string",
                     *           "status": "current",
                     *           "activatedAt": "2026-11-26T09:30:00.000Z",
                     *           "retiredAt": "2026-11-26T09:30:00.000Z",
                     *           "treeSizes": {
                     *             "from": 1,
                     *             "to": 1
                     *           },
                     *           "successor": {
                     *             "publicKey": "string",
                     *             "signature": "string",
                     *             "position": "string",
                     *             "handover": "string"
                     *           }
                     *         }
                     *       ],
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description the current key first, then the retired ones, newest first */
                        keys: {
                            keyName: string;
                            keyId: string;
                            /** @description base64 of the 32 raw Ed25519 bytes */
                            publicKey: string;
                            /** @description signed-note verifier key: <name>+<hex key id>+<base64(0x01 ‖ public key)> */
                            vkey: string;
                            /** @description the same key as verifier of each checkpoint's signed time: <name>+<hex key id>+<base64(0x04 ‖ public key)> */
                            timestampVkey: string;
                            status: "current" | "retired";
                            /** Format: date-time */
                            activatedAt: string;
                            /** Format: date-time */
                            retiredAt: string | null;
                            /** @description with ?tenant=: the sizes of that tenant's tree this key signed checkpoints for (to: null while current; null: none) */
                            treeSizes?: {
                                from: number;
                                to: number | null;
                            } | null;
                            /** @description a retired key's successor and the signatures naming it (docs/verifying.md, Keys); null for the current key */
                            successor: {
                                /** @description the key that succeeded this one (base64 of the 32 raw Ed25519 bytes) */
                                publicKey: string;
                                /** @description the successor's Ed25519 signature (base64) of the succession statement "consent-ledger/key-succession/v1\n<this publicKey>\n<successor publicKey>\n" */
                                signature: string;
                                /** @description the last ledger position (<commit>.<prepare>) this key authenticates, named in the statement (v2: "consent-ledger/key-succession/v2\n<this publicKey>\n<successor publicKey>\n<position>\n"); null for a key retired before positions were named (v1 statement, no position line) */
                                position: string | null;
                                /** @description this key's own signature (base64) of the same statement: what lets an auditor who kept only this key trust its successor; null for a key retired before handovers were signed */
                                handover: string | null;
                            } | null;
                        }[];
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLedgerCheckpointByTenantId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "checkpoint": "string",
                     *         "treeSize": 1,
                     *         "rootHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description C2SP signed note: <origin>\n<tree size>\n<base64 root>\n, a blank line, — <key name> <base64(key id ‖ Ed25519 signature)> */
                            checkpoint: string;
                            treeSize: number;
                            rootHash: string;
                            /** Format: date-time */
                            timestamp: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLedgerConsistencyByTenantId: {
        parameters: {
            query: {
                from: number;
                to: number;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "from": 1,
                     *         "to": 1,
                     *         "consistencyPath": [
                     *           "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         ]
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            from: number;
                            to: number;
                            /** @description RFC 9162 §2.1.4 consistency proof */
                            consistencyPath: string[];
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLedgerConsentsReceiptsByTenantIdAndConsentIdAndReceiptId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
                consentId: string;
                receiptId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "event": {
                     *           "id": "string",
                     *           "tenantId": "string",
                     *           "stream": "string",
                     *           "revision": 1,
                     *           "type": "string",
                     *           "data": {},
                     *           "metadata": {},
                     *           "recordedAt": "string",
                     *           "prevHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         },
                     *         "eventHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *         "leafIndex": 1,
                     *         "treeSize": 1,
                     *         "inclusionPath": [
                     *           "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         ],
                     *         "checkpoint": "string",
                     *         "rootHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description The event envelope: eventHash = hex SHA-256 of its RFC 8785 canonical JSON (docs/hashing.md) */
                            event: {
                                id: string;
                                tenantId: string;
                                stream: string;
                                revision: number;
                                type: string;
                                data: {
                                    [key: string]: unknown;
                                };
                                metadata: {
                                    [key: string]: unknown;
                                };
                                recordedAt: string;
                                prevHash: string | null;
                            };
                            eventHash: string;
                            leafIndex: number;
                            treeSize: number;
                            /** @description RFC 9162 §2.1.3 inclusion path, leaf side first */
                            inclusionPath: string[];
                            checkpoint: string;
                            rootHash: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLedgerEventsByTenantId: {
        parameters: {
            query?: {
                after?: number;
                limit?: number;
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "leafIndex": 1,
                     *           "event": {
                     *             "id": "string",
                     *             "tenantId": "string",
                     *             "stream": "string",
                     *             "revision": 1,
                     *             "type": "string",
                     *             "data": {},
                     *             "metadata": {},
                     *             "recordedAt": "string",
                     *             "prevHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *           },
                     *           "eventHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *           "authenticator": "string"
                     *         }
                     *       ],
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            leafIndex: number;
                            /** @description The event envelope: eventHash = hex SHA-256 of its RFC 8785 canonical JSON (docs/hashing.md) */
                            event: {
                                id: string;
                                tenantId: string;
                                stream: string;
                                revision: number;
                                type: string;
                                data: {
                                    [key: string]: unknown;
                                };
                                metadata: {
                                    [key: string]: unknown;
                                };
                                recordedAt: string;
                                prevHash: string | null;
                            };
                            eventHash: string;
                            /** @description the appender's signature covering eventHash, v1:<key id>:<index>:<group size>:<base64 signature>:<base64 path> (docs/verifying.md); null for events from before authenticators */
                            authenticator: string | null;
                        }[];
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPolicies: {
        parameters: {
            query?: {
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                /** @description a purpose defined with POST /purposes, or a policy type (each is its own purpose); one neither is a 400 */
                purpose?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                type?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                isActive?: boolean;
                is_active?: boolean;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "policyType": "string",
                     *           "purpose": "string",
                     *           "version": "string",
                     *           "title": "string",
                     *           "contentHash": "string",
                     *           "effectiveDate": "2026-11-26T09:30:00.000Z",
                     *           "requiresReconsent": true,
                     *           "consentValidFor": "string",
                     *           "isActive": true,
                     *           "createdAt": "2026-11-26T09:30:00.000Z",
                     *           "updatedAt": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 1,
                     *         "total": 1,
                     *         "pages": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            policyType: string;
                            /** @description the purpose the version asks consent for: its policy type unless published with one (docs/purposes.md) */
                            purpose: string;
                            version: string;
                            title: string;
                            /** @description lowercase hex SHA-256 of the content (UTF-8) */
                            contentHash: string;
                            /** Format: date-time */
                            effectiveDate: string;
                            /** @description whether decisions on older versions of its purpose become outdated once it is effective */
                            requiresReconsent: boolean;
                            /** @description the purpose's validity when the version was published (ISO 8601 duration): a consent given on it expires that long after; null: never */
                            consentValidFor: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "policyType": "custom",
                 *       "purpose": "newsletter",
                 *       "version": "1.0.0",
                 *       "title": "Newsletter",
                 *       "content": "One email a month. Unsubscribe any time.",
                 *       "effectiveDate": "2026-11-26T09:30:00.000Z",
                 *       "requiresReconsent": true
                 *     }
                 */
                "application/json": {
                    /**
                     * @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom
                     * @enum {string}
                     */
                    policyType: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                    /** @description a purpose defined with POST /purposes, or the version’s own policyType; absent: the policy type */
                    purpose?: string;
                    /**
                     * @description major.minor.patch; unique per type and purpose, and per purpose across types (409 POLICY_VERSION_EXISTS, docs/purposes.md)
                     * @example 1.0.0
                     */
                    version: string;
                    title: string;
                    /** @description Full policy text, at most 1 MiB of UTF-8 */
                    content: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601; defaults to now
                     */
                    effectiveDate?: string;
                    /** @description whether this is a material change: once it is effective, decisions on older versions of its purpose are outdated (default true) */
                    requiresReconsent?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "policyType": "string",
                     *         "purpose": "string",
                     *         "version": "string",
                     *         "title": "string",
                     *         "contentHash": "string",
                     *         "effectiveDate": "2026-11-26T09:30:00.000Z",
                     *         "requiresReconsent": true,
                     *         "consentValidFor": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z",
                     *         "content": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            policyType: string;
                            /** @description the purpose the version asks consent for: its policy type unless published with one (docs/purposes.md) */
                            purpose: string;
                            version: string;
                            title: string;
                            /** @description lowercase hex SHA-256 of the content (UTF-8) */
                            contentHash: string;
                            /** Format: date-time */
                            effectiveDate: string;
                            /** @description whether decisions on older versions of its purpose become outdated once it is effective */
                            requiresReconsent: boolean;
                            /** @description the purpose's validity when the version was published (ISO 8601 duration): a consent given on it expires that long after; null: never */
                            consentValidFor: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            content: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPoliciesActive: {
        parameters: {
            query: {
                /** @description a purpose defined with POST /purposes, or a policy type (each is its own purpose); one neither is a 400 */
                purpose: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "policyType": "string",
                     *         "purpose": "string",
                     *         "version": "string",
                     *         "title": "string",
                     *         "contentHash": "string",
                     *         "effectiveDate": "2026-11-26T09:30:00.000Z",
                     *         "requiresReconsent": true,
                     *         "consentValidFor": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z",
                     *         "content": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            policyType: string;
                            /** @description the purpose the version asks consent for: its policy type unless published with one (docs/purposes.md) */
                            purpose: string;
                            version: string;
                            title: string;
                            /** @description lowercase hex SHA-256 of the content (UTF-8) */
                            contentHash: string;
                            /** Format: date-time */
                            effectiveDate: string;
                            /** @description whether decisions on older versions of its purpose become outdated once it is effective */
                            requiresReconsent: boolean;
                            /** @description the purpose's validity when the version was published (ISO 8601 duration): a consent given on it expires that long after; null: never */
                            consentValidFor: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            content: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPoliciesActiveByPolicyType: {
        parameters: {
            query?: {
                /** @description a purpose defined with POST /purposes, or a policy type (each is its own purpose); one neither is a 400 */
                purpose?: string;
            };
            header?: never;
            path: {
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                policyType: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "policyType": "string",
                     *         "purpose": "string",
                     *         "version": "string",
                     *         "title": "string",
                     *         "contentHash": "string",
                     *         "effectiveDate": "2026-11-26T09:30:00.000Z",
                     *         "requiresReconsent": true,
                     *         "consentValidFor": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z",
                     *         "content": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            policyType: string;
                            /** @description the purpose the version asks consent for: its policy type unless published with one (docs/purposes.md) */
                            purpose: string;
                            version: string;
                            title: string;
                            /** @description lowercase hex SHA-256 of the content (UTF-8) */
                            contentHash: string;
                            /** Format: date-time */
                            effectiveDate: string;
                            /** @description whether decisions on older versions of its purpose become outdated once it is effective */
                            requiresReconsent: boolean;
                            /** @description the purpose's validity when the version was published (ISO 8601 duration): a consent given on it expires that long after; null: never */
                            consentValidFor: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            content: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPoliciesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "policyType": "string",
                     *         "purpose": "string",
                     *         "version": "string",
                     *         "title": "string",
                     *         "contentHash": "string",
                     *         "effectiveDate": "2026-11-26T09:30:00.000Z",
                     *         "requiresReconsent": true,
                     *         "consentValidFor": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z",
                     *         "content": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            policyType: string;
                            /** @description the purpose the version asks consent for: its policy type unless published with one (docs/purposes.md) */
                            purpose: string;
                            version: string;
                            title: string;
                            /** @description lowercase hex SHA-256 of the content (UTF-8) */
                            contentHash: string;
                            /** Format: date-time */
                            effectiveDate: string;
                            /** @description whether decisions on older versions of its purpose become outdated once it is effective */
                            requiresReconsent: boolean;
                            /** @description the purpose's validity when the version was published (ISO 8601 duration): a consent given on it expires that long after; null: never */
                            consentValidFor: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            content: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    replacePoliciesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "isActive": true
                 *     }
                 */
                "application/json": {
                    isActive: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "policyType": "string",
                     *         "purpose": "string",
                     *         "version": "string",
                     *         "title": "string",
                     *         "contentHash": "string",
                     *         "effectiveDate": "2026-11-26T09:30:00.000Z",
                     *         "requiresReconsent": true,
                     *         "consentValidFor": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z",
                     *         "content": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            policyType: string;
                            /** @description the purpose the version asks consent for: its policy type unless published with one (docs/purposes.md) */
                            purpose: string;
                            version: string;
                            title: string;
                            /** @description lowercase hex SHA-256 of the content (UTF-8) */
                            contentHash: string;
                            /** Format: date-time */
                            effectiveDate: string;
                            /** @description whether decisions on older versions of its purpose become outdated once it is effective */
                            requiresReconsent: boolean;
                            /** @description the purpose's validity when the version was published (ISO 8601 duration): a consent given on it expires that long after; null: never */
                            consentValidFor: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            content: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deletePoliciesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "message": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            message: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updatePoliciesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "isActive": true
                 *     }
                 */
                "application/json": {
                    isActive: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "policyType": "string",
                     *         "purpose": "string",
                     *         "version": "string",
                     *         "title": "string",
                     *         "contentHash": "string",
                     *         "effectiveDate": "2026-11-26T09:30:00.000Z",
                     *         "requiresReconsent": true,
                     *         "consentValidFor": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z",
                     *         "content": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            policyType: string;
                            /** @description the purpose the version asks consent for: its policy type unless published with one (docs/purposes.md) */
                            purpose: string;
                            version: string;
                            title: string;
                            /** @description lowercase hex SHA-256 of the content (UTF-8) */
                            contentHash: string;
                            /** Format: date-time */
                            effectiveDate: string;
                            /** @description whether decisions on older versions of its purpose become outdated once it is effective */
                            requiresReconsent: boolean;
                            /** @description the purpose's validity when the version was published (ISO 8601 duration): a consent given on it expires that long after; null: never */
                            consentValidFor: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            content: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPurposes: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "key": "string",
                     *           "name": "string",
                     *           "description": "string",
                     *           "legalBasis": "consent",
                     *           "consentValidFor": "string",
                     *           "dpv": "string",
                     *           "createdAt": "2026-11-26T09:30:00.000Z",
                     *           "updatedAt": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 1,
                     *         "total": 1,
                     *         "pages": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            key: string;
                            name: string;
                            description: string;
                            /** @description GDPR Art. 6(1): (a) consent, (b) contract, (c) legal_obligation, (d) vital_interests, (e) public_task, (f) legitimate_interests */
                            legalBasis: "consent" | "contract" | "legal_obligation" | "vital_interests" | "public_task" | "legitimate_interests";
                            /** @description null: decisions never expire */
                            consentValidFor: string | (never | null);
                            /** @description a W3C Data Privacy Vocabulary purpose: dpv:Marketing, or its IRI (a purpose of DPV’s core, checked by name with its case: 400 otherwise, naming the nearest term; a name without its prefix too), or an extension’s IRI */
                            dpv: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPurposes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "key": "newsletter",
                 *       "name": "Newsletter",
                 *       "description": "A monthly email about new products",
                 *       "legalBasis": "consent",
                 *       "consentValidFor": "P13M",
                 *       "dpv": "dpv:Marketing"
                 *     }
                 */
                "application/json": {
                    /** @description the purpose’s name in the API, for good */
                    key: string;
                    name: string;
                    /** @description up to 5,000 characters; null or absent: none */
                    description?: string | null;
                    /** @description GDPR Art. 6(1): (a) consent, (b) contract, (c) legal_obligation, (d) vital_interests, (e) public_task, (f) legitimate_interests; or its letter of GDPR Art. 6(1) (a to f, 6(1)(a), Art. 6(1)(a)) or its DPV GDPR term (eu-gdpr:A6-1-a). Answered as its name. */
                    legalBasis: string;
                    /** @description null: decisions never expire */
                    consentValidFor?: string | (never | null);
                    /** @description a W3C Data Privacy Vocabulary purpose: dpv:Marketing, or its IRI (a purpose of DPV’s core, checked by name with its case: 400 otherwise, naming the nearest term; a name without its prefix too), or an extension’s IRI */
                    dpv?: string | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "key": "string",
                     *         "name": "string",
                     *         "description": "string",
                     *         "legalBasis": "consent",
                     *         "consentValidFor": "string",
                     *         "dpv": "string",
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            key: string;
                            name: string;
                            description: string;
                            /** @description GDPR Art. 6(1): (a) consent, (b) contract, (c) legal_obligation, (d) vital_interests, (e) public_task, (f) legitimate_interests */
                            legalBasis: "consent" | "contract" | "legal_obligation" | "vital_interests" | "public_task" | "legitimate_interests";
                            /** @description null: decisions never expire */
                            consentValidFor: string | (never | null);
                            /** @description a W3C Data Privacy Vocabulary purpose: dpv:Marketing, or its IRI (a purpose of DPV’s core, checked by name with its case: 400 otherwise, naming the nearest term; a name without its prefix too), or an extension’s IRI */
                            dpv: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPurposesByKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the purpose’s name in the API, for good */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "key": "string",
                     *         "name": "string",
                     *         "description": "string",
                     *         "legalBasis": "consent",
                     *         "consentValidFor": "string",
                     *         "dpv": "string",
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            key: string;
                            name: string;
                            description: string;
                            /** @description GDPR Art. 6(1): (a) consent, (b) contract, (c) legal_obligation, (d) vital_interests, (e) public_task, (f) legitimate_interests */
                            legalBasis: "consent" | "contract" | "legal_obligation" | "vital_interests" | "public_task" | "legitimate_interests";
                            /** @description null: decisions never expire */
                            consentValidFor: string | (never | null);
                            /** @description a W3C Data Privacy Vocabulary purpose: dpv:Marketing, or its IRI (a purpose of DPV’s core, checked by name with its case: 400 otherwise, naming the nearest term; a name without its prefix too), or an extension’s IRI */
                            dpv: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    replacePurposesByKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the purpose’s name in the API, for good */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Newsletter",
                 *       "description": "A monthly email about new products",
                 *       "legalBasis": "consent",
                 *       "consentValidFor": "P13M",
                 *       "dpv": "dpv:Marketing"
                 *     }
                 */
                "application/json": {
                    name?: string;
                    /** @description up to 5,000 characters; null or absent: none */
                    description?: string | null;
                    /** @description GDPR Art. 6(1): (a) consent, (b) contract, (c) legal_obligation, (d) vital_interests, (e) public_task, (f) legitimate_interests; or its letter of GDPR Art. 6(1) (a to f, 6(1)(a), Art. 6(1)(a)) or its DPV GDPR term (eu-gdpr:A6-1-a). Answered as its name. */
                    legalBasis?: string;
                    /** @description null: decisions never expire */
                    consentValidFor?: string | (never | null);
                    /** @description a W3C Data Privacy Vocabulary purpose: dpv:Marketing, or its IRI (a purpose of DPV’s core, checked by name with its case: 400 otherwise, naming the nearest term; a name without its prefix too), or an extension’s IRI */
                    dpv?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "key": "string",
                     *         "name": "string",
                     *         "description": "string",
                     *         "legalBasis": "consent",
                     *         "consentValidFor": "string",
                     *         "dpv": "string",
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            key: string;
                            name: string;
                            description: string;
                            /** @description GDPR Art. 6(1): (a) consent, (b) contract, (c) legal_obligation, (d) vital_interests, (e) public_task, (f) legitimate_interests */
                            legalBasis: "consent" | "contract" | "legal_obligation" | "vital_interests" | "public_task" | "legitimate_interests";
                            /** @description null: decisions never expire */
                            consentValidFor: string | (never | null);
                            /** @description a W3C Data Privacy Vocabulary purpose: dpv:Marketing, or its IRI (a purpose of DPV’s core, checked by name with its case: 400 otherwise, naming the nearest term; a name without its prefix too), or an extension’s IRI */
                            dpv: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updatePurposesByKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the purpose’s name in the API, for good */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "consentValidFor": "P24M"
                 *     }
                 */
                "application/json": {
                    name?: string;
                    /** @description up to 5,000 characters; null or absent: none */
                    description?: string | null;
                    /** @description GDPR Art. 6(1): (a) consent, (b) contract, (c) legal_obligation, (d) vital_interests, (e) public_task, (f) legitimate_interests; or its letter of GDPR Art. 6(1) (a to f, 6(1)(a), Art. 6(1)(a)) or its DPV GDPR term (eu-gdpr:A6-1-a). Answered as its name. */
                    legalBasis?: string;
                    /** @description null: decisions never expire */
                    consentValidFor?: string | (never | null);
                    /** @description a W3C Data Privacy Vocabulary purpose: dpv:Marketing, or its IRI (a purpose of DPV’s core, checked by name with its case: 400 otherwise, naming the nearest term; a name without its prefix too), or an extension’s IRI */
                    dpv?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "key": "string",
                     *         "name": "string",
                     *         "description": "string",
                     *         "legalBasis": "consent",
                     *         "consentValidFor": "string",
                     *         "dpv": "string",
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            key: string;
                            name: string;
                            description: string;
                            /** @description GDPR Art. 6(1): (a) consent, (b) contract, (c) legal_obligation, (d) vital_interests, (e) public_task, (f) legitimate_interests */
                            legalBasis: "consent" | "contract" | "legal_obligation" | "vital_interests" | "public_task" | "legitimate_interests";
                            /** @description null: decisions never expire */
                            consentValidFor: string | (never | null);
                            /** @description a W3C Data Privacy Vocabulary purpose: dpv:Marketing, or its IRI (a purpose of DPV’s core, checked by name with its case: 400 otherwise, naming the nearest term; a name without its prefix too), or an extension’s IRI */
                            dpv: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsent: {
        parameters: {
            query?: {
                /** @description your identifier of the end user, 1..255 characters */
                userReference?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                /** @description records decided on this policy version */
                policyVersionId?: string;
                /** @description records decided on a version of this purpose (a policy type is its own); one never defined is a 400 */
                purpose?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                consent_type?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                consentGiven?: boolean;
                granted?: boolean;
                /** @description active, withdrawn, expired (a consent given past its expiresAt, judged at read time), or outdated (active, on a version that a newer one in force requiring re-consent replaced) */
                status?: "active" | "withdrawn" | "expired" | "outdated";
                /** @description inclusive; a date covers its whole UTC day; after endDate: 400 */
                startDate?: string;
                /** @description inclusive; a date covers its whole UTC day */
                endDate?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "consentHash": "string",
                     *           "userReference": "string",
                     *           "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "policyType": "string",
                     *           "policyVersion": "string",
                     *           "consentGiven": true,
                     *           "status": "string",
                     *           "purpose": "string",
                     *           "expiresAt": "2026-11-26T09:30:00.000Z",
                     *           "ipAddress": "string",
                     *           "userAgent": "string",
                     *           "metadata": {},
                     *           "createdAt": "2026-11-26T09:30:00.000Z",
                     *           "collectedAt": "2026-11-26T09:30:00.000Z",
                     *           "imported": true,
                     *           "withdrawnAt": "2026-11-26T09:30:00.000Z",
                     *           "erased": true,
                     *           "tampered": true
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 1,
                     *         "total": 1,
                     *         "pages": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            consentHash: string;
                            /** @description null once the subject was erased (docs/erasure.md) */
                            userReference: string | null;
                            /** Format: uuid */
                            policyVersionId: string;
                            policyType: string;
                            policyVersion: string;
                            consentGiven: boolean;
                            /** @description active, withdrawn, or expired (a consent given past its expiresAt, at read time) */
                            status: string;
                            /** @description the policy version's purpose; present only when it is not its policy type */
                            purpose?: string;
                            /**
                             * Format: date-time
                             * @description when the consent given expires (the version's consentValidFor after the decision); present only for a consent that expires
                             */
                            expiresAt?: string;
                            ipAddress: string | null;
                            userAgent: string | null;
                            /** @description null once the subject was erased */
                            metadata: {
                                [key: string]: unknown;
                            } | (never | null);
                            /** Format: date-time */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @description when the decision was originally made, on another platform; present only for an imported record (in its consentHash input)
                             */
                            collectedAt?: string;
                            /**
                             * @description present (true) only for a decision imported with collectedAt
                             * @enum {boolean}
                             */
                            imported?: true;
                            /** Format: date-time */
                            withdrawnAt: string | null;
                            /** @description true once the subject's personal data was erased: the personal fields are null */
                            erased: boolean;
                            /** @description true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote */
                            tampered: boolean;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createConsent: {
        parameters: {
            query?: never;
            header?: {
                /** @description a repeat with the same key and body answers the first response (Idempotent-Replayed: true), for as long as the ledger keeps the event; the same key with another body, or on another of the record, batch and withdraw routes, is 422 IDEMPOTENCY_KEY_REUSED */
                "idempotency-key"?: string;
                /** @description publishable keys issued with a userTokenKey: a JWT (EdDSA) your backend signed for the visitor, whose sub is the decision's userReference and whose exp is at most 24 hours ahead (docs/browser.md) */
                "x-user-token"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                 *       "userReference": "user-42",
                 *       "consentGiven": true,
                 *       "ipAddress": "203.0.113.7",
                 *       "userAgent": "Mozilla/5.0",
                 *       "metadata": {
                 *         "source": "signup"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** Format: uuid */
                    policyVersionId?: string;
                    /** @description your identifier of the end user, 1..255 characters */
                    userReference: string;
                    /** @description true = consent given, false = rejected */
                    consentGiven: boolean;
                    /**
                     * Format: ip
                     * @description IPv4 or IPv6; taken from the request when omitted (not for a batch item with collectedAt: null then)
                     */
                    ipAddress?: string | null;
                    /** @description taken from the User-Agent header when omitted (not for a batch item with collectedAt: null then) */
                    userAgent?: string | null;
                    /** @description a JSON object, at most 16 KiB serialized and 8 levels deep */
                    metadata?: {
                        [key: string]: unknown;
                    } | null;
                    /** @description instead of policyVersionId: the version of this purpose in force now (a batch item with collectedAt: in force then) */
                    purpose?: string;
                    /**
                     * @description instead of policyVersionId: the version of this type's own purpose in force now, else of its only purpose (a batch item with collectedAt: in force then); 400 when the type has versions of several purposes and none of its own
                     * @enum {string}
                     */
                    policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "consentHash": "string",
                     *         "userReference": "string",
                     *         "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "consentGiven": true,
                     *         "timestamp": "2026-11-26T09:30:00.000Z",
                     *         "purpose": "string",
                     *         "expiresAt": "2026-11-26T09:30:00.000Z",
                     *         "collectedAt": "2026-11-26T09:30:00.000Z",
                     *         "imported": true
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            consentHash: string;
                            /** @description null once the subject was erased (docs/erasure.md) */
                            userReference: string | null;
                            /** Format: uuid */
                            policyVersionId: string;
                            consentGiven: boolean;
                            /** Format: date-time */
                            timestamp: string;
                            /** @description the policy version's purpose; present only when it is not its policy type */
                            purpose?: string;
                            /**
                             * Format: date-time
                             * @description when the consent given expires (the version's consentValidFor after the decision); present only for a consent that expires
                             */
                            expiresAt?: string;
                            /**
                             * Format: date-time
                             * @description when the decision was originally made, on another platform; present only for an imported record (in its consentHash input)
                             */
                            collectedAt?: string;
                            /**
                             * @description present (true) only for a decision imported with collectedAt
                             * @enum {boolean}
                             */
                            imported?: true;
                        } | {
                            /** Format: uuid */
                            id: string;
                            /** @description the public verification page of the record (its id and consentHash) */
                            verifyUrl: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Refused by a rule of the domain (see the error code) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    batchConsent: {
        parameters: {
            query?: never;
            header?: {
                /** @description a repeat with the same key and body answers the first response (Idempotent-Replayed: true), for as long as the ledger keeps the event; the same key with another body, or on another of the record, batch and withdraw routes, is 422 IDEMPOTENCY_KEY_REUSED */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "consents": [
                 *         {
                 *           "policyType": "privacy_policy",
                 *           "userReference": "user-42",
                 *           "consentGiven": true,
                 *           "metadata": {
                 *             "source": "signup"
                 *           }
                 *         },
                 *         {
                 *           "purpose": "newsletter",
                 *           "userReference": "user-42",
                 *           "consentGiven": false
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    consents: {
                        /** Format: uuid */
                        policyVersionId?: string;
                        /** @description your identifier of the end user, 1..255 characters */
                        userReference: string;
                        /** @description true = consent given, false = rejected */
                        consentGiven: boolean;
                        /**
                         * Format: ip
                         * @description IPv4 or IPv6; taken from the request when omitted (not for a batch item with collectedAt: null then)
                         */
                        ipAddress?: string | null;
                        /** @description taken from the User-Agent header when omitted (not for a batch item with collectedAt: null then) */
                        userAgent?: string | null;
                        /** @description a JSON object, at most 16 KiB serialized and 8 levels deep */
                        metadata?: {
                            [key: string]: unknown;
                        } | null;
                        /**
                         * Format: date-time
                         * @description when the decision was originally made, for history moved from another platform: from 1990-01-01T00:00:00Z on, in the past. The record is `imported: true`; `collectedAt` enters its consentHash input (docs/hashing.md)
                         */
                        collectedAt?: string;
                        /**
                         * Format: date-time
                         * @description with collectedAt, on a consent given: when it was withdrawn on the other platform (not before collectedAt, in the past); recorded as it happened even after the purpose's validity ran out (the record reads withdrawn)
                         */
                        withdrawnAt?: string;
                        /** @description instead of policyVersionId: the version of this purpose in force now (a batch item with collectedAt: in force then) */
                        purpose?: string;
                        /**
                         * @description instead of policyVersionId: the version of this type's own purpose in force now, else of its only purpose (a batch item with collectedAt: in force then); 400 when the type has versions of several purposes and none of its own
                         * @enum {string}
                         */
                        policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                    }[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "processed": 1,
                     *         "consents": [
                     *           {
                     *             "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *             "userReference": "string",
                     *             "consentGiven": true
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            processed: number;
                            consents: {
                                /** Format: uuid */
                                id: string;
                                /** @description null once the subject was erased (docs/erasure.md) */
                                userReference: string | null;
                                consentGiven: boolean;
                            }[];
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Refused by a rule of the domain (see the error code) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentStatsVersions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "policyType": "string",
                     *           "purpose": "string",
                     *           "version": "string",
                     *           "title": "string",
                     *           "isActive": true,
                     *           "deleted": true,
                     *           "effectiveDate": "2026-11-26T09:30:00.000Z",
                     *           "requiresReconsent": true,
                     *           "inForce": true,
                     *           "given": 1,
                     *           "rejected": 1,
                     *           "withdrawn": 1,
                     *           "expired": 1,
                     *           "acceptanceRate": 1
                     *         }
                     *       ],
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            policyVersionId: string;
                            policyType: string;
                            purpose: string;
                            version: string;
                            title: string;
                            isActive: boolean;
                            deleted: boolean;
                            /**
                             * Format: date-time
                             * @description when it takes (or took) effect
                             */
                            effectiveDate: string;
                            requiresReconsent: boolean;
                            /** @description the version of its purpose in force now (the one GET /policies/active answers): active, effective, latest */
                            inForce: boolean;
                            given: number;
                            rejected: number;
                            withdrawn: number;
                            expired: number;
                            acceptanceRate: number;
                        }[];
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentStatsDaily: {
        parameters: {
            query?: {
                startDate?: string;
                endDate?: string;
                /** @description a purpose defined with POST /purposes, or a policy type (each is its own purpose); one neither is a 400 */
                purpose?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "day": "2026-11-26",
                     *           "given": 1,
                     *           "rejected": 1,
                     *           "withdrawn": 1,
                     *           "expired": 1
                     *         }
                     *       ],
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: date */
                            day: string;
                            given: number;
                            rejected: number;
                            withdrawn: number;
                            expired: number;
                        }[];
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentStats: {
        parameters: {
            query?: {
                /** @description your identifier of the end user, 1..255 characters */
                userReference?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                /** @description records decided on this policy version */
                policyVersionId?: string;
                /** @description records decided on a version of this purpose (a policy type is its own); one never defined is a 400 */
                purpose?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                consent_type?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                consentGiven?: boolean;
                granted?: boolean;
                /** @description active, withdrawn, expired (a consent given past its expiresAt, judged at read time), or outdated (active, on a version that a newer one in force requiring re-consent replaced) */
                status?: "active" | "withdrawn" | "expired" | "outdated";
                /** @description inclusive; a date covers its whole UTC day; after endDate: 400 */
                startDate?: string;
                /** @description inclusive; a date covers its whole UTC day */
                endDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "totalConsents": 1,
                     *         "acceptedConsents": 1,
                     *         "rejectedConsents": 1,
                     *         "acceptanceRate": 1,
                     *         "consentsByPolicy": [
                     *           {
                     *             "policyType": "string",
                     *             "count": 1
                     *           }
                     *         ],
                     *         "consentsByPurpose": [
                     *           {
                     *             "purpose": "string",
                     *             "count": 1
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            totalConsents: number;
                            acceptedConsents: number;
                            rejectedConsents: number;
                            /** @description accepted / total × 100, one decimal; 0 when total is 0 */
                            acceptanceRate: number;
                            consentsByPolicy: {
                                policyType: string;
                                count: number;
                            }[];
                            /** @description records per purpose (a policy type is its own purpose), most first; present only when a purpose other than a policy type has records */
                            consentsByPurpose?: {
                                purpose: string;
                                count: number;
                            }[];
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentSearch: {
        parameters: {
            query?: {
                /** @description your identifier of the end user, 1..255 characters */
                userReference?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                /** @description records decided on this policy version */
                policyVersionId?: string;
                /** @description records decided on a version of this purpose (a policy type is its own); one never defined is a 400 */
                purpose?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                consent_type?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                consentGiven?: boolean;
                granted?: boolean;
                /** @description active, withdrawn, expired (a consent given past its expiresAt, judged at read time), or outdated (active, on a version that a newer one in force requiring re-consent replaced) */
                status?: "active" | "withdrawn" | "expired" | "outdated";
                /** @description inclusive; a date covers its whole UTC day; after endDate: 400 */
                startDate?: string;
                /** @description inclusive; a date covers its whole UTC day */
                endDate?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "consentHash": "string",
                     *           "userReference": "string",
                     *           "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "policyType": "string",
                     *           "policyVersion": "string",
                     *           "consentGiven": true,
                     *           "status": "string",
                     *           "purpose": "string",
                     *           "expiresAt": "2026-11-26T09:30:00.000Z",
                     *           "ipAddress": "string",
                     *           "userAgent": "string",
                     *           "metadata": {},
                     *           "createdAt": "2026-11-26T09:30:00.000Z",
                     *           "collectedAt": "2026-11-26T09:30:00.000Z",
                     *           "imported": true,
                     *           "withdrawnAt": "2026-11-26T09:30:00.000Z",
                     *           "erased": true,
                     *           "tampered": true
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 1,
                     *         "total": 1,
                     *         "pages": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            consentHash: string;
                            /** @description null once the subject was erased (docs/erasure.md) */
                            userReference: string | null;
                            /** Format: uuid */
                            policyVersionId: string;
                            policyType: string;
                            policyVersion: string;
                            consentGiven: boolean;
                            /** @description active, withdrawn, or expired (a consent given past its expiresAt, at read time) */
                            status: string;
                            /** @description the policy version's purpose; present only when it is not its policy type */
                            purpose?: string;
                            /**
                             * Format: date-time
                             * @description when the consent given expires (the version's consentValidFor after the decision); present only for a consent that expires
                             */
                            expiresAt?: string;
                            ipAddress: string | null;
                            userAgent: string | null;
                            /** @description null once the subject was erased */
                            metadata: {
                                [key: string]: unknown;
                            } | (never | null);
                            /** Format: date-time */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @description when the decision was originally made, on another platform; present only for an imported record (in its consentHash input)
                             */
                            collectedAt?: string;
                            /**
                             * @description present (true) only for a decision imported with collectedAt
                             * @enum {boolean}
                             */
                            imported?: true;
                            /** Format: date-time */
                            withdrawnAt: string | null;
                            /** @description true once the subject's personal data was erased: the personal fields are null */
                            erased: boolean;
                            /** @description true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote */
                            tampered: boolean;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentExport: {
        parameters: {
            query?: {
                /** @description your identifier of the end user, 1..255 characters */
                userReference?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                /** @description records decided on this policy version */
                policyVersionId?: string;
                /** @description records decided on a version of this purpose (a policy type is its own); one never defined is a 400 */
                purpose?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                consent_type?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                consentGiven?: boolean;
                granted?: boolean;
                /** @description active, withdrawn, expired (a consent given past its expiresAt, judged at read time), or outdated (active, on a version that a newer one in force requiring re-consent replaced) */
                status?: "active" | "withdrawn" | "expired" | "outdated";
                /** @description inclusive; a date covers its whole UTC day; after endDate: 400 */
                startDate?: string;
                /** @description inclusive; a date covers its whole UTC day */
                endDate?: string;
                /** @description csv (default), or iso27560: one ISO/IEC TS 27560 JSON-LD record per line (docs/standard-records.md) */
                format?: "csv" | "iso27560";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV, or JSON lines with format=iso27560, streamed */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    /** @description the size of the tenant's newest signed checkpoint whose every event the export reflects (0 when none) */
                    "x-ledger-tree-size"?: number;
                    /** @description that checkpoint's root hash (hex) */
                    "x-ledger-root-hash"?: string;
                    /** @description that checkpoint's signed time */
                    "x-ledger-signed-at"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                    "application/x-ndjson": string;
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentVerify: {
        parameters: {
            query: {
                consentId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "valid": true,
                     *         "consentId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "storedHash": "string",
                     *         "computedHash": "string",
                     *         "verifiedAt": "2026-11-26T09:30:00.000Z",
                     *         "erased": true,
                     *         "tampered": true,
                     *         "reason": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            valid: boolean;
                            /** Format: uuid */
                            consentId: string;
                            storedHash: string;
                            /** @description null when the hash cannot be recomputed (the subject was erased) */
                            computedHash: string | null;
                            /** Format: date-time */
                            verifiedAt: string;
                            /** @description true once the subject's personal data was erased: the personal fields are null */
                            erased: boolean;
                            /** @description true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote */
                            tampered: boolean;
                            /** @description why valid is false; null when valid */
                            reason: string | null;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentUserByUserReference: {
        parameters: {
            query?: {
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                /** @description records decided on this policy version */
                policyVersionId?: string;
                /** @description records decided on a version of this purpose (a policy type is its own); one never defined is a 400 */
                purpose?: string;
                /** @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom */
                consent_type?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                consentGiven?: boolean;
                granted?: boolean;
                /** @description active, withdrawn, expired (a consent given past its expiresAt, judged at read time), or outdated (active, on a version that a newer one in force requiring re-consent replaced) */
                status?: "active" | "withdrawn" | "expired" | "outdated";
                /** @description inclusive; a date covers its whole UTC day; after endDate: 400 */
                startDate?: string;
                /** @description inclusive; a date covers its whole UTC day */
                endDate?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description your identifier of the end user, 1..255 characters */
                userReference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "userReference": "string",
                     *           "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "consentGiven": true,
                     *           "status": "string",
                     *           "purpose": "string",
                     *           "expiresAt": "2026-11-26T09:30:00.000Z",
                     *           "createdAt": "2026-11-26T09:30:00.000Z",
                     *           "collectedAt": "2026-11-26T09:30:00.000Z",
                     *           "imported": true,
                     *           "withdrawnAt": "2026-11-26T09:30:00.000Z",
                     *           "erased": true,
                     *           "tampered": true,
                     *           "policyDetails": {
                     *             "title": "string",
                     *             "type": "string"
                     *           }
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 1,
                     *         "total": 1,
                     *         "pages": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @description null once the subject was erased (docs/erasure.md) */
                            userReference: string | null;
                            /** Format: uuid */
                            policyVersionId: string;
                            consentGiven: boolean;
                            /** @description active, withdrawn, or expired (a consent given past its expiresAt, at read time) */
                            status: string;
                            /** @description the policy version's purpose; present only when it is not its policy type */
                            purpose?: string;
                            /**
                             * Format: date-time
                             * @description when the consent given expires (the version's consentValidFor after the decision); present only for a consent that expires
                             */
                            expiresAt?: string;
                            /** Format: date-time */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @description when the decision was originally made, on another platform; present only for an imported record (in its consentHash input)
                             */
                            collectedAt?: string;
                            /**
                             * @description present (true) only for a decision imported with collectedAt
                             * @enum {boolean}
                             */
                            imported?: true;
                            /** Format: date-time */
                            withdrawnAt: string | null;
                            /** @description true once the subject's personal data was erased: the personal fields are null */
                            erased: boolean;
                            /** @description true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote */
                            tampered: boolean;
                            policyDetails: {
                                title: string;
                                type: string;
                            };
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentUserStatusByUserReference: {
        parameters: {
            query?: {
                /** @description only this purpose (none when the user has not decided on it) */
                purpose?: string;
            };
            header?: never;
            path: {
                /** @description your identifier of the end user, 1..255 characters */
                userReference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "userReference": "string",
                     *         "policies": [
                     *           {
                     *             "purpose": "string",
                     *             "policyType": "string",
                     *             "status": "given",
                     *             "consentGiven": true,
                     *             "consentId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *             "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *             "policyVersion": "string",
                     *             "decidedAt": "2026-11-26T09:30:00.000Z",
                     *             "expiresAt": "2026-11-26T09:30:00.000Z",
                     *             "withdrawnAt": "2026-11-26T09:30:00.000Z",
                     *             "inForce": {
                     *               "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *               "policyVersion": "string",
                     *               "effectiveDate": "2026-11-26T09:30:00.000Z"
                     *             }
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            userReference: string;
                            policies: {
                                /** @description the purpose (its policy type for versions published without one) */
                                purpose: string;
                                /** @description the decided version's type; for none, the type of the version in force */
                                policyType: string | null;
                                /** @description the latest decision as it stands now: withdrawn; expired (a consent past expiresAt); outdated (a newer version that requires re-consent is in force); given or rejected; none (a defined purpose with no decision) */
                                status: "given" | "rejected" | "withdrawn" | "expired" | "outdated" | "none";
                                /** @description what was decided; null for none */
                                consentGiven: boolean | null;
                                /** Format: uuid */
                                consentId: string | null;
                                /** Format: uuid */
                                policyVersionId: string | null;
                                /** @description the version decided on */
                                policyVersion: string | null;
                                /** Format: date-time */
                                decidedAt: string | null;
                                /**
                                 * Format: date-time
                                 * @description when the consent given expires; null: never
                                 */
                                expiresAt: string | null;
                                /** Format: date-time */
                                withdrawnAt: string | null;
                                /** @description the version of the purpose in force now (active, effective, latest); null when none is */
                                inForce: {
                                    /** Format: uuid */
                                    policyVersionId: string;
                                    policyVersion: string;
                                    /** Format: date-time */
                                    effectiveDate: string;
                                } | null;
                            }[];
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentHistoryById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "type": "string",
                     *           "recordedAt": "2026-11-26T09:30:00.000Z",
                     *           "actor": {
                     *             "type": "string",
                     *             "id": "string"
                     *           },
                     *           "stream": "string",
                     *           "revision": 1,
                     *           "eventHash": "string",
                     *           "prevHash": "string"
                     *         }
                     *       ],
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            type: string;
                            /** Format: date-time */
                            recordedAt: string;
                            actor: {
                                type: string;
                                id?: string;
                            } | null;
                            stream: string;
                            revision: number;
                            eventHash: string;
                            prevHash: string | null;
                        }[];
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentById: {
        parameters: {
            query?: {
                /** @description iso27560: the record as an ISO/IEC TS 27560 JSON-LD document (DPV profile), its purpose as it was when the decision was recorded */
                format?: "iso27560";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the record (JSON envelope), or its ISO/IEC TS 27560 record (JSON-LD) */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "consentHash": "string",
                     *         "userReference": "string",
                     *         "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "consentGiven": true,
                     *         "status": "string",
                     *         "purpose": "string",
                     *         "expiresAt": "2026-11-26T09:30:00.000Z",
                     *         "ipAddress": "string",
                     *         "userAgent": "string",
                     *         "metadata": {},
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "timestamp": "2026-11-26T09:30:00.000Z",
                     *         "collectedAt": "2026-11-26T09:30:00.000Z",
                     *         "imported": true,
                     *         "withdrawnAt": "2026-11-26T09:30:00.000Z",
                     *         "withdrawalReason": "string",
                     *         "erased": true,
                     *         "tampered": true,
                     *         "policyDetails": {
                     *           "title": "string",
                     *           "type": "string",
                     *           "version": "string",
                     *           "contentHash": "string"
                     *         },
                     *         "recordedBy": {
                     *           "type": "key",
                     *           "id": "string"
                     *         },
                     *         "withdrawnBy": {
                     *           "type": "key",
                     *           "id": "string"
                     *         },
                     *         "collectedVia": "browser"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            consentHash: string;
                            /** @description null once the subject was erased (docs/erasure.md) */
                            userReference: string | null;
                            /** Format: uuid */
                            policyVersionId: string;
                            consentGiven: boolean;
                            /** @description active, withdrawn, or expired (a consent given past its expiresAt, at read time) */
                            status: string;
                            /** @description the policy version's purpose; present only when it is not its policy type */
                            purpose?: string;
                            /**
                             * Format: date-time
                             * @description when the consent given expires (the version's consentValidFor after the decision); present only for a consent that expires
                             */
                            expiresAt?: string;
                            ipAddress: string | null;
                            userAgent: string | null;
                            /** @description null once the subject was erased */
                            metadata: {
                                [key: string]: unknown;
                            } | (never | null);
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            timestamp: string;
                            /**
                             * Format: date-time
                             * @description when the decision was originally made, on another platform; present only for an imported record (in its consentHash input)
                             */
                            collectedAt?: string;
                            /**
                             * @description present (true) only for a decision imported with collectedAt
                             * @enum {boolean}
                             */
                            imported?: true;
                            /** Format: date-time */
                            withdrawnAt: string | null;
                            withdrawalReason: string | null;
                            /** @description true once the subject's personal data was erased: the personal fields are null */
                            erased: boolean;
                            /** @description true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote */
                            tampered: boolean;
                            policyDetails: {
                                title: string;
                                type: string;
                                version: string;
                                contentHash: string;
                            };
                            /** @description who made the change, as the ledger event's metadata names it */
                            recordedBy?: {
                                type: "key" | "operator" | "cli" | "service";
                                /** @description the API key (ck_…, or pk_… for a publishable key: collected in the browser), for type key */
                                id?: string;
                            };
                            /** @description who made the change, as the ledger event's metadata names it */
                            withdrawnBy?: {
                                type: "key" | "operator" | "cli" | "service";
                                /** @description the API key (ck_…, or pk_… for a publishable key: collected in the browser), for type key */
                                id?: string;
                            };
                            /**
                             * @description the decision was collected in a browser, with a publishable key
                             * @enum {string}
                             */
                            collectedVia?: "browser";
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                    "application/ld+json": {
                        "@context": {
                            [key: string]: unknown;
                        };
                        "@id": string;
                        /** @enum {string} */
                        "@type": "dpv:ConsentRecord";
                        /** @enum {string} */
                        "dct:conformsTo": "https://w3id.org/dpv/schema/dpv-27560#record";
                        /** Format: uuid */
                        "dct:identifier": string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentVerifyById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "valid": true,
                     *         "consentId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "storedHash": "string",
                     *         "computedHash": "string",
                     *         "verifiedAt": "2026-11-26T09:30:00.000Z",
                     *         "erased": true,
                     *         "tampered": true,
                     *         "reason": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            valid: boolean;
                            /** Format: uuid */
                            consentId: string;
                            storedHash: string;
                            /** @description null when the hash cannot be recomputed (the subject was erased) */
                            computedHash: string | null;
                            /** Format: date-time */
                            verifiedAt: string;
                            /** @description true once the subject's personal data was erased: the personal fields are null */
                            erased: boolean;
                            /** @description true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote */
                            tampered: boolean;
                            /** @description why valid is false; null when valid */
                            reason: string | null;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    withdrawConsentById: {
        parameters: {
            query?: never;
            header?: {
                /** @description a repeat with the same key and body answers the first response (Idempotent-Replayed: true), for as long as the ledger keeps the event; the same key with another body, or on another of the record, batch and withdraw routes, is 422 IDEMPOTENCY_KEY_REUSED */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "reason": "asked by email"
                 *     }
                 */
                "application/json": {
                    reason?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "consentHash": "string",
                     *         "userReference": "string",
                     *         "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "consentGiven": true,
                     *         "status": "string",
                     *         "purpose": "string",
                     *         "expiresAt": "2026-11-26T09:30:00.000Z",
                     *         "ipAddress": "string",
                     *         "userAgent": "string",
                     *         "metadata": {},
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "timestamp": "2026-11-26T09:30:00.000Z",
                     *         "collectedAt": "2026-11-26T09:30:00.000Z",
                     *         "imported": true,
                     *         "withdrawnAt": "2026-11-26T09:30:00.000Z",
                     *         "withdrawalReason": "string",
                     *         "erased": true,
                     *         "tampered": true,
                     *         "policyDetails": {
                     *           "title": "string",
                     *           "type": "string",
                     *           "version": "string",
                     *           "contentHash": "string"
                     *         },
                     *         "recordedBy": {
                     *           "type": "key",
                     *           "id": "string"
                     *         },
                     *         "withdrawnBy": {
                     *           "type": "key",
                     *           "id": "string"
                     *         },
                     *         "collectedVia": "browser"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            consentHash: string;
                            /** @description null once the subject was erased (docs/erasure.md) */
                            userReference: string | null;
                            /** Format: uuid */
                            policyVersionId: string;
                            consentGiven: boolean;
                            /** @description active, withdrawn, or expired (a consent given past its expiresAt, at read time) */
                            status: string;
                            /** @description the policy version's purpose; present only when it is not its policy type */
                            purpose?: string;
                            /**
                             * Format: date-time
                             * @description when the consent given expires (the version's consentValidFor after the decision); present only for a consent that expires
                             */
                            expiresAt?: string;
                            ipAddress: string | null;
                            userAgent: string | null;
                            /** @description null once the subject was erased */
                            metadata: {
                                [key: string]: unknown;
                            } | (never | null);
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            timestamp: string;
                            /**
                             * Format: date-time
                             * @description when the decision was originally made, on another platform; present only for an imported record (in its consentHash input)
                             */
                            collectedAt?: string;
                            /**
                             * @description present (true) only for a decision imported with collectedAt
                             * @enum {boolean}
                             */
                            imported?: true;
                            /** Format: date-time */
                            withdrawnAt: string | null;
                            withdrawalReason: string | null;
                            /** @description true once the subject's personal data was erased: the personal fields are null */
                            erased: boolean;
                            /** @description true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote */
                            tampered: boolean;
                            policyDetails: {
                                title: string;
                                type: string;
                                version: string;
                                contentHash: string;
                            };
                            /** @description who made the change, as the ledger event's metadata names it */
                            recordedBy?: {
                                type: "key" | "operator" | "cli" | "service";
                                /** @description the API key (ck_…, or pk_… for a publishable key: collected in the browser), for type key */
                                id?: string;
                            };
                            /** @description who made the change, as the ledger event's metadata names it */
                            withdrawnBy?: {
                                type: "key" | "operator" | "cli" | "service";
                                /** @description the API key (ck_…, or pk_… for a publishable key: collected in the browser), for type key */
                                id?: string;
                            };
                            /**
                             * @description the decision was collected in a browser, with a publishable key
                             * @enum {string}
                             */
                            collectedVia?: "browser";
                        } | {
                            /** Format: uuid */
                            id: string;
                            /** @enum {string} */
                            status: "withdrawn";
                            /** Format: date-time */
                            withdrawnAt: string;
                            withdrawalReason: string | null;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Refused by a rule of the domain (see the error code) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    withdrawConsentUserByUserReference: {
        parameters: {
            query?: never;
            header?: {
                /** @description a repeat with the same key and body answers the first response (Idempotent-Replayed: true), for as long as the ledger keeps the event; the same key with another body, or on another of the record, batch and withdraw routes, is 422 IDEMPOTENCY_KEY_REUSED */
                "idempotency-key"?: string;
            };
            path: {
                /** @description your identifier of the end user, 1..255 characters */
                userReference: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "purpose": "newsletter",
                 *       "reason": "asked by email"
                 *     }
                 */
                "application/json": {
                    /** @description a purpose defined with POST /purposes, or a policy type (each is its own purpose); one neither is a 400 */
                    purpose?: string;
                    /**
                     * @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom
                     * @enum {string}
                     */
                    policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                    reason?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "userReference": "string",
                     *         "withdrawn": [
                     *           {
                     *             "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *             "consentHash": "string",
                     *             "userReference": "string",
                     *             "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *             "consentGiven": true,
                     *             "status": "string",
                     *             "purpose": "string",
                     *             "expiresAt": "2026-11-26T09:30:00.000Z",
                     *             "ipAddress": "string",
                     *             "userAgent": "string",
                     *             "metadata": {},
                     *             "createdAt": "2026-11-26T09:30:00.000Z",
                     *             "timestamp": "2026-11-26T09:30:00.000Z",
                     *             "collectedAt": "2026-11-26T09:30:00.000Z",
                     *             "imported": true,
                     *             "withdrawnAt": "2026-11-26T09:30:00.000Z",
                     *             "withdrawalReason": "string",
                     *             "erased": true,
                     *             "tampered": true,
                     *             "policyDetails": {
                     *               "title": "string",
                     *               "type": "string",
                     *               "version": "string",
                     *               "contentHash": "string"
                     *             },
                     *             "recordedBy": {
                     *               "type": "key",
                     *               "id": "string"
                     *             },
                     *             "withdrawnBy": {
                     *               "type": "key",
                     *               "id": "string"
                     *             },
                     *             "collectedVia": "browser"
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            userReference: string;
                            /** @description the records withdrawn: one per purpose the user stood by (to a write key, each withdrawal alone) */
                            withdrawn: ({
                                /** Format: uuid */
                                id: string;
                                consentHash: string;
                                /** @description null once the subject was erased (docs/erasure.md) */
                                userReference: string | null;
                                /** Format: uuid */
                                policyVersionId: string;
                                consentGiven: boolean;
                                /** @description active, withdrawn, or expired (a consent given past its expiresAt, at read time) */
                                status: string;
                                /** @description the policy version's purpose; present only when it is not its policy type */
                                purpose?: string;
                                /**
                                 * Format: date-time
                                 * @description when the consent given expires (the version's consentValidFor after the decision); present only for a consent that expires
                                 */
                                expiresAt?: string;
                                ipAddress: string | null;
                                userAgent: string | null;
                                /** @description null once the subject was erased */
                                metadata: {
                                    [key: string]: unknown;
                                } | (never | null);
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                timestamp: string;
                                /**
                                 * Format: date-time
                                 * @description when the decision was originally made, on another platform; present only for an imported record (in its consentHash input)
                                 */
                                collectedAt?: string;
                                /**
                                 * @description present (true) only for a decision imported with collectedAt
                                 * @enum {boolean}
                                 */
                                imported?: true;
                                /** Format: date-time */
                                withdrawnAt: string | null;
                                withdrawalReason: string | null;
                                /** @description true once the subject's personal data was erased: the personal fields are null */
                                erased: boolean;
                                /** @description true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote */
                                tampered: boolean;
                                policyDetails: {
                                    title: string;
                                    type: string;
                                    version: string;
                                    contentHash: string;
                                };
                                /** @description who made the change, as the ledger event's metadata names it */
                                recordedBy?: {
                                    type: "key" | "operator" | "cli" | "service";
                                    /** @description the API key (ck_…, or pk_… for a publishable key: collected in the browser), for type key */
                                    id?: string;
                                };
                                /** @description who made the change, as the ledger event's metadata names it */
                                withdrawnBy?: {
                                    type: "key" | "operator" | "cli" | "service";
                                    /** @description the API key (ck_…, or pk_… for a publishable key: collected in the browser), for type key */
                                    id?: string;
                                };
                                /**
                                 * @description the decision was collected in a browser, with a publishable key
                                 * @enum {string}
                                 */
                                collectedVia?: "browser";
                            } | {
                                /** Format: uuid */
                                id: string;
                                /** @enum {string} */
                                status: "withdrawn";
                                /** Format: date-time */
                                withdrawnAt: string;
                                withdrawalReason: string | null;
                            })[];
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Refused by a rule of the domain (see the error code) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    withdrawConsentUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description a repeat with the same key and body answers the first response (Idempotent-Replayed: true), for as long as the ledger keeps the event; the same key with another body, or on another of the record, batch and withdraw routes, is 422 IDEMPOTENCY_KEY_REUSED */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "userReference": "user-42",
                 *       "purpose": "newsletter",
                 *       "reason": "asked by email"
                 *     }
                 */
                "application/json": {
                    /** @description your identifier of the end user, 1..255 characters */
                    userReference: string;
                    /** @description a purpose defined with POST /purposes, or a policy type (each is its own purpose); one neither is a 400 */
                    purpose?: string;
                    /**
                     * @description privacy_policy, terms_of_service, cookie_policy, marketing_consent, data_processing or custom
                     * @enum {string}
                     */
                    policyType?: "privacy_policy" | "terms_of_service" | "cookie_policy" | "marketing_consent" | "data_processing" | "custom";
                    reason?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "userReference": "string",
                     *         "withdrawn": [
                     *           {
                     *             "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *             "consentHash": "string",
                     *             "userReference": "string",
                     *             "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *             "consentGiven": true,
                     *             "status": "string",
                     *             "purpose": "string",
                     *             "expiresAt": "2026-11-26T09:30:00.000Z",
                     *             "ipAddress": "string",
                     *             "userAgent": "string",
                     *             "metadata": {},
                     *             "createdAt": "2026-11-26T09:30:00.000Z",
                     *             "timestamp": "2026-11-26T09:30:00.000Z",
                     *             "collectedAt": "2026-11-26T09:30:00.000Z",
                     *             "imported": true,
                     *             "withdrawnAt": "2026-11-26T09:30:00.000Z",
                     *             "withdrawalReason": "string",
                     *             "erased": true,
                     *             "tampered": true,
                     *             "policyDetails": {
                     *               "title": "string",
                     *               "type": "string",
                     *               "version": "string",
                     *               "contentHash": "string"
                     *             },
                     *             "recordedBy": {
                     *               "type": "key",
                     *               "id": "string"
                     *             },
                     *             "withdrawnBy": {
                     *               "type": "key",
                     *               "id": "string"
                     *             },
                     *             "collectedVia": "browser"
                     *           }
                     *         ]
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            userReference: string;
                            /** @description the records withdrawn: one per purpose the user stood by (to a write key, each withdrawal alone) */
                            withdrawn: ({
                                /** Format: uuid */
                                id: string;
                                consentHash: string;
                                /** @description null once the subject was erased (docs/erasure.md) */
                                userReference: string | null;
                                /** Format: uuid */
                                policyVersionId: string;
                                consentGiven: boolean;
                                /** @description active, withdrawn, or expired (a consent given past its expiresAt, at read time) */
                                status: string;
                                /** @description the policy version's purpose; present only when it is not its policy type */
                                purpose?: string;
                                /**
                                 * Format: date-time
                                 * @description when the consent given expires (the version's consentValidFor after the decision); present only for a consent that expires
                                 */
                                expiresAt?: string;
                                ipAddress: string | null;
                                userAgent: string | null;
                                /** @description null once the subject was erased */
                                metadata: {
                                    [key: string]: unknown;
                                } | (never | null);
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                timestamp: string;
                                /**
                                 * Format: date-time
                                 * @description when the decision was originally made, on another platform; present only for an imported record (in its consentHash input)
                                 */
                                collectedAt?: string;
                                /**
                                 * @description present (true) only for a decision imported with collectedAt
                                 * @enum {boolean}
                                 */
                                imported?: true;
                                /** Format: date-time */
                                withdrawnAt: string | null;
                                withdrawalReason: string | null;
                                /** @description true once the subject's personal data was erased: the personal fields are null */
                                erased: boolean;
                                /** @description true when the personal fields do not open with their key (the stored record was changed): they are null; never reported as erased. On GET /consent/:id also when an event of the record is one the service did not append, or was changed in place so that its events no longer chain (docs/verifying.md): its status and decision may read what a forger wrote */
                                tampered: boolean;
                                policyDetails: {
                                    title: string;
                                    type: string;
                                    version: string;
                                    contentHash: string;
                                };
                                /** @description who made the change, as the ledger event's metadata names it */
                                recordedBy?: {
                                    type: "key" | "operator" | "cli" | "service";
                                    /** @description the API key (ck_…, or pk_… for a publishable key: collected in the browser), for type key */
                                    id?: string;
                                };
                                /** @description who made the change, as the ledger event's metadata names it */
                                withdrawnBy?: {
                                    type: "key" | "operator" | "cli" | "service";
                                    /** @description the API key (ck_…, or pk_… for a publishable key: collected in the browser), for type key */
                                    id?: string;
                                };
                                /**
                                 * @description the decision was collected in a browser, with a publishable key
                                 * @enum {string}
                                 */
                                collectedVia?: "browser";
                            } | {
                                /** Format: uuid */
                                id: string;
                                /** @enum {string} */
                                status: "withdrawn";
                                /** Format: date-time */
                                withdrawnAt: string;
                                withdrawalReason: string | null;
                            })[];
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Refused by a rule of the domain (see the error code) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentReconsent: {
        parameters: {
            query?: {
                /** @description only this purpose (a policy type is its own); absent: every purpose */
                purpose?: string;
                /** @description csv streams every subject as CSV (Starter plan or above, as the export); json (the default) answers a page */
                format?: "json" | "csv";
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page (JSON), or every subject (CSV, streamed) */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "userReference": "string",
                     *           "consentId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "purpose": "string",
                     *           "consentGiven": true,
                     *           "decidedAt": "2026-11-26T09:30:00.000Z",
                     *           "policyVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "policyVersion": "string",
                     *           "reconsentVersionId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "reconsentVersion": "string",
                     *           "erased": true
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 1,
                     *         "total": 1,
                     *         "pages": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description null once the subject was erased (docs/erasure.md) */
                            userReference: string | null;
                            /** Format: uuid */
                            consentId: string;
                            purpose: string;
                            /** @description the outdated decision: a consent given or a refusal */
                            consentGiven: boolean;
                            /** Format: date-time */
                            decidedAt: string;
                            /**
                             * Format: uuid
                             * @description the version decided on, now outdated
                             */
                            policyVersionId: string;
                            policyVersion: string;
                            /**
                             * Format: uuid
                             * @description the version in force that asks for re-consent
                             */
                            reconsentVersionId: string;
                            reconsentVersion: string;
                            /** @description true once the subject's personal data was erased: the personal fields are null */
                            erased: boolean;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                    "text/csv": string;
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentPdfById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The receipt */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    /** @description Hex SHA-256 of the PDF bytes as sent (computed from them; the ledger records the issued one in ReceiptIssued) */
                    "x-receipt-sha256"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    pdfConsentById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The receipt */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    /** @description Hex SHA-256 of the PDF bytes as sent (computed from them; the ledger records the issued one in ReceiptIssued) */
                    "x-receipt-sha256"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Refused by a rule of the domain (see the error code) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    eraseSubjectsByUserReference: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description your identifier of the end user, 1..255 characters */
                userReference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "erased": true,
                     *         "erasedAt": "2026-11-26T09:30:00.000Z",
                     *         "consentIds": [
                     *           "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b"
                     *         ],
                     *         "receiptsDeleted": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @enum {boolean} */
                            erased: true;
                            /**
                             * Format: date-time
                             * @description when the erasure was recorded (the first request, for a repeat)
                             */
                            erasedAt: string;
                            /** @description the records it covered: they remain, with personal fields null and erased: true */
                            consentIds: string[];
                            /** @description stored PDF receipts deleted by this request */
                            receiptsDeleted: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    eraseSubjects: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "userReference": "user-42"
                 *     }
                 */
                "application/json": {
                    /** @description your identifier of the end user, 1..255 characters */
                    userReference: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "erased": true,
                     *         "erasedAt": "2026-11-26T09:30:00.000Z",
                     *         "consentIds": [
                     *           "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b"
                     *         ],
                     *         "receiptsDeleted": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @enum {boolean} */
                            erased: true;
                            /**
                             * Format: date-time
                             * @description when the erasure was recorded (the first request, for a repeat)
                             */
                            erasedAt: string;
                            /** @description the records it covered: they remain, with personal fields null and erased: true */
                            consentIds: string[];
                            /** @description stored PDF receipts deleted by this request */
                            receiptsDeleted: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "apiKey": "string",
                     *           "name": "string",
                     *           "scope": "admin",
                     *           "createdAt": "2026-11-26T09:30:00.000Z",
                     *           "expiresAt": "2026-11-26T09:30:00.000Z",
                     *           "lastUsedAt": "2026-11-26T09:30:00.000Z",
                     *           "revokedAt": "2026-11-26T09:30:00.000Z",
                     *           "origins": [
                     *             "string"
                     *           ],
                     *           "perMinute": 1,
                     *           "userTokenKey": "string"
                     *         }
                     *       ],
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            apiKey: string;
                            name: string | null;
                            /** @description admin: everything; write: record and withdraw (no reading records back); read: read, verify, prove, export, receipts (no writing); publishable: pk_… with no secret, records decisions from a browser on the origins it lists, nothing else (docs/browser.md) */
                            scope: "admin" | "write" | "read" | "publishable";
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            expiresAt: string | null;
                            /**
                             * Format: date-time
                             * @description to within a minute; null: never used
                             */
                            lastUsedAt: string | null;
                            /** Format: date-time */
                            revokedAt: string | null;
                            /** @description publishable keys: the origins allowed */
                            origins?: string[];
                            /** @description publishable keys: the key's own budget per minute */
                            perMinute?: number;
                            /** @description publishable keys: the Ed25519 public key (32 bytes, base64url) the key's user tokens are signed by; null: it needs none */
                            userTokenKey?: string | null;
                        }[];
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "scope": "read",
                 *       "name": "auditor",
                 *       "expiresAt": "2030-01-01T00:00:00.000Z"
                 *     }
                 */
                "application/json": {
                    /** @description admin: everything; write: record and withdraw (no reading records back); read: read, verify, prove, export, receipts (no writing); publishable: pk_… with no secret, records decisions from a browser on the origins it lists, nothing else (docs/browser.md) */
                    scope?: "admin" | "write" | "read" | "publishable";
                    /** @description a label of your own, e.g. "auditor 2027" */
                    name?: string;
                    /**
                     * Format: date-time
                     * @description when the key stops working (in the future); absent: never
                     */
                    expiresAt?: string;
                    /** @description publishable keys only (and required there): the origins (scheme://host[:port]) the key may be used from */
                    origins?: string[];
                    /** @description publishable keys only: the key's own budget per minute (default 60; per day 1,440 times it), apart from its tenant's */
                    perMinute?: number;
                    /** @description publishable keys only: an Ed25519 public key (PEM, or its 32 bytes in hex, base64 or base64url). With one, each decision the key records must carry X-User-Token, a JWT (EdDSA) your backend signs with the private key naming the userReference as its sub (docs/browser.md) */
                    userTokenKey?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "apiKey": "string",
                     *         "apiSecret": "string",
                     *         "name": "string",
                     *         "scope": "admin",
                     *         "expiresAt": "2026-11-26T09:30:00.000Z",
                     *         "origins": [
                     *           "string"
                     *         ],
                     *         "perMinute": 1,
                     *         "userTokenKey": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            apiKey: string;
                            /** @description shown once; only its hash is stored. Null for a publishable key, which has none */
                            apiSecret: string | null;
                            name: string | null;
                            /** @description admin: everything; write: record and withdraw (no reading records back); read: read, verify, prove, export, receipts (no writing); publishable: pk_… with no secret, records decisions from a browser on the origins it lists, nothing else (docs/browser.md) */
                            scope: "admin" | "write" | "read" | "publishable";
                            /** Format: date-time */
                            expiresAt: string | null;
                            origins?: string[];
                            perMinute?: number;
                            /** @description publishable keys: the Ed25519 public key (32 bytes, base64url) the key's user tokens are signed by; null: it needs none */
                            userTokenKey?: string | null;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteKeysByApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                apiKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "message": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            message: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "url": "string",
                     *           "events": [
                     *             "string"
                     *           ],
                     *           "description": "string",
                     *           "isActive": true,
                     *           "createdAt": "2026-11-26T09:30:00.000Z",
                     *           "updatedAt": "2026-11-26T09:30:00.000Z",
                     *           "lastTriggered": "2026-11-26T09:30:00.000Z",
                     *           "deliveryStats": {
                     *             "total": 1,
                     *             "successful": 1,
                     *             "failed": 1
                     *           }
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 1,
                     *         "total": 1,
                     *         "pages": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            url: string;
                            events: string[];
                            description: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /**
                             * Format: date-time
                             * @description time of the latest attempt
                             */
                            lastTriggered: string | null;
                            /** @description counts of delivery attempts */
                            deliveryStats: {
                                total: number;
                                successful: number;
                                failed: number;
                            };
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/consent",
                 *       "events": [
                 *         "consent.created",
                 *         "consent.withdrawn"
                 *       ],
                 *       "description": "CRM sync"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uri
                     * @description an https:// URL that receives the deliveries
                     */
                    url: string;
                    /** @description event names to receive */
                    events: ("consent.created" | "consent.revoked" | "consent.withdrawn" | "consent.updated" | "consent.batch_created" | "consent.expired" | "policy.created" | "policy.updated" | "policy.deleted" | "policy.reconsent_required" | "subject.erased" | "*")[];
                    /** @description up to 1,000 characters; null for none */
                    description?: string | null;
                    /** @description your own signing secret, 16..256 characters (its UTF-8 bytes are the key); generated (whsec_…) when omitted */
                    secret?: string;
                    isActive?: boolean;
                    is_active?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "url": "string",
                     *         "events": [
                     *           "string"
                     *         ],
                     *         "description": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "secret": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z",
                     *         "message": "string"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            url: string;
                            events: string[];
                            description: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description shown once: save it */
                            secret: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "url": "string",
                     *         "events": [
                     *           "string"
                     *         ],
                     *         "description": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z",
                     *         "lastTriggered": "2026-11-26T09:30:00.000Z",
                     *         "deliveryStats": {
                     *           "total": 1,
                     *           "successful": 1,
                     *           "failed": 1
                     *         }
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            url: string;
                            events: string[];
                            description: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /**
                             * Format: date-time
                             * @description time of the latest attempt
                             */
                            lastTriggered: string | null;
                            /** @description counts of delivery attempts */
                            deliveryStats: {
                                total: number;
                                successful: number;
                                failed: number;
                            };
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    replaceWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "isActive": true,
                 *       "events": [
                 *         "consent.created"
                 *       ],
                 *       "description": "CRM sync"
                 *     }
                 */
                "application/json": {
                    isActive?: boolean;
                    is_active?: boolean;
                    /** @description event names to receive */
                    events?: ("consent.created" | "consent.revoked" | "consent.withdrawn" | "consent.updated" | "consent.batch_created" | "consent.expired" | "policy.created" | "policy.updated" | "policy.deleted" | "policy.reconsent_required" | "subject.erased" | "*")[];
                    /** @description up to 1,000 characters; null for none */
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "url": "string",
                     *         "events": [
                     *           "string"
                     *         ],
                     *         "description": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z",
                     *         "lastTriggered": "2026-11-26T09:30:00.000Z",
                     *         "deliveryStats": {
                     *           "total": 1,
                     *           "successful": 1,
                     *           "failed": 1
                     *         }
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            url: string;
                            events: string[];
                            description: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /**
                             * Format: date-time
                             * @description time of the latest attempt
                             */
                            lastTriggered: string | null;
                            /** @description counts of delivery attempts */
                            deliveryStats: {
                                total: number;
                                successful: number;
                                failed: number;
                            };
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "message": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            message: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "isActive": false
                 *     }
                 */
                "application/json": {
                    isActive?: boolean;
                    is_active?: boolean;
                    /** @description event names to receive */
                    events?: ("consent.created" | "consent.revoked" | "consent.withdrawn" | "consent.updated" | "consent.batch_created" | "consent.expired" | "policy.created" | "policy.updated" | "policy.deleted" | "policy.reconsent_required" | "subject.erased" | "*")[];
                    /** @description up to 1,000 characters; null for none */
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "url": "string",
                     *         "events": [
                     *           "string"
                     *         ],
                     *         "description": "string",
                     *         "isActive": true,
                     *         "createdAt": "2026-11-26T09:30:00.000Z",
                     *         "updatedAt": "2026-11-26T09:30:00.000Z",
                     *         "lastTriggered": "2026-11-26T09:30:00.000Z",
                     *         "deliveryStats": {
                     *           "total": 1,
                     *           "successful": 1,
                     *           "failed": 1
                     *         }
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            id: string;
                            url: string;
                            events: string[];
                            description: string | null;
                            isActive: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /**
                             * Format: date-time
                             * @description time of the latest attempt
                             */
                            lastTriggered: string | null;
                            /** @description counts of delivery attempts */
                            deliveryStats: {
                                total: number;
                                successful: number;
                                failed: number;
                            };
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not application/json (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhooksDeliveriesById: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "webhookId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "deliveryId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "eventId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "event": "string",
                     *           "attempt": 1,
                     *           "statusCode": 1,
                     *           "success": true,
                     *           "error": "string",
                     *           "responseTime": 1,
                     *           "attemptedAt": "2026-11-26T09:30:00.000Z",
                     *           "deliveryStatus": "pending",
                     *           "nextAttemptAt": "2026-11-26T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 1,
                     *         "total": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /**
                             * Format: uuid
                             * @description the attempt
                             */
                            id: string;
                            /** Format: uuid */
                            webhookId: string;
                            /**
                             * Format: uuid
                             * @description the delivery (one event to one webhook) the attempt belongs to
                             */
                            deliveryId: string;
                            /**
                             * Format: uuid
                             * @description the payload id, for de-duplication
                             */
                            eventId: string;
                            /** @description event name */
                            event: string;
                            /** @description 1..5, and on after a redelivery */
                            attempt: number;
                            /** @description the receiver’s HTTP status; null when none came */
                            statusCode: number | null;
                            success: boolean;
                            /** @description why the attempt failed: the receiver’s answer (`HTTP 500`), a connection error by its code, `refused: …` for a destination that is not public, or `not sent: …` when nothing was sent because the delivery’s row is not as the service wrote it (its URL, webhook or body changed in the database, docs/webhooks.md) */
                            error?: string;
                            /** @description milliseconds */
                            responseTime: number;
                            /** Format: date-time */
                            attemptedAt: string;
                            /** @description where the delivery this attempt belongs to stands now: pending (another attempt is due), delivered, failed (the fifth attempt failed: no more come), cancelled (the webhook was deactivated or deleted; an attempt already on its way that the receiver takes makes it delivered) */
                            deliveryStatus: "pending" | "delivered" | "failed" | "cancelled";
                            /**
                             * Format: date-time
                             * @description when the delivery is tried next, while it is pending; else null
                             */
                            nextAttemptAt: string | null;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWebhooksDeliveriesRedeliverByIdAndDeliveryId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTTP 202 */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "deliveryId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "eventId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "event": "string",
                     *         "deliveryStatus": "pending",
                     *         "nextAttemptAt": "2026-11-26T09:30:00.000Z"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            deliveryId: string;
                            /**
                             * Format: uuid
                             * @description the payload id, the same as before: a receiver de-duplicates by it
                             */
                            eventId: string;
                            /** @description event name */
                            event: string;
                            /** @enum {string} */
                            deliveryStatus: "pending";
                            /**
                             * Format: date-time
                             * @description when it is sent: now
                             */
                            nextAttemptAt: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "delivered": true,
                     *         "statusCode": 1,
                     *         "responseTime": 1,
                     *         "message": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            delivered: boolean;
                            /** @description null when no HTTP answer came */
                            statusCode: number | null;
                            /** @description milliseconds */
                            responseTime: number;
                            message: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLedgerCheckpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "checkpoint": "string",
                     *         "treeSize": 1,
                     *         "rootHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description C2SP signed note: <origin>\n<tree size>\n<base64 root>\n, a blank line, — <key name> <base64(key id ‖ Ed25519 signature)> */
                            checkpoint: string;
                            treeSize: number;
                            rootHash: string;
                            /** Format: date-time */
                            timestamp: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsentProofById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "consentId": "string",
                     *         "event": {
                     *           "id": "string",
                     *           "tenantId": "string",
                     *           "stream": "string",
                     *           "revision": 1,
                     *           "type": "string",
                     *           "data": {},
                     *           "metadata": {},
                     *           "recordedAt": "string",
                     *           "prevHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         },
                     *         "eventHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *         "leafIndex": 1,
                     *         "treeSize": 1,
                     *         "inclusionPath": [
                     *           "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         ],
                     *         "checkpoint": "string",
                     *         "rootHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            consentId: string;
                            /** @description The event envelope: eventHash = hex SHA-256 of its RFC 8785 canonical JSON (docs/hashing.md) */
                            event: {
                                id: string;
                                tenantId: string;
                                stream: string;
                                revision: number;
                                type: string;
                                data: {
                                    [key: string]: unknown;
                                };
                                metadata: {
                                    [key: string]: unknown;
                                };
                                recordedAt: string;
                                prevHash: string | null;
                            };
                            eventHash: string;
                            leafIndex: number;
                            treeSize: number;
                            /** @description RFC 9162 §2.1.3 inclusion path, leaf side first */
                            inclusionPath: string[];
                            checkpoint: string;
                            rootHash: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLedgerConsistency: {
        parameters: {
            query: {
                from: number;
                to: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "from": 1,
                     *         "to": 1,
                     *         "consistencyPath": [
                     *           "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         ]
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            from: number;
                            to: number;
                            /** @description RFC 9162 §2.1.4 consistency proof */
                            consistencyPath: string[];
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLedgerEvents: {
        parameters: {
            query?: {
                after?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "leafIndex": 1,
                     *           "event": {
                     *             "id": "string",
                     *             "tenantId": "string",
                     *             "stream": "string",
                     *             "revision": 1,
                     *             "type": "string",
                     *             "data": {},
                     *             "metadata": {},
                     *             "recordedAt": "string",
                     *             "prevHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *           },
                     *           "eventHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *           "authenticator": "string"
                     *         }
                     *       ],
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            leafIndex: number;
                            /** @description The event envelope: eventHash = hex SHA-256 of its RFC 8785 canonical JSON (docs/hashing.md) */
                            event: {
                                id: string;
                                tenantId: string;
                                stream: string;
                                revision: number;
                                type: string;
                                data: {
                                    [key: string]: unknown;
                                };
                                metadata: {
                                    [key: string]: unknown;
                                };
                                recordedAt: string;
                                prevHash: string | null;
                            };
                            eventHash: string;
                            /** @description the appender's signature covering eventHash, v1:<key id>:<index>:<group size>:<base64 signature>:<base64 path> (docs/verifying.md); null for events from before authenticators */
                            authenticator: string | null;
                        }[];
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAuditLog: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
                action?: "tenant.created" | "tenant.changed" | "key.issued" | "key.revoked" | "key.expired" | "webhook.created" | "webhook.changed" | "webhook.deleted" | "purpose.defined" | "purpose.changed" | "policy.published" | "policy.activated" | "policy.deactivated" | "policy.deleted" | "subject.erased" | "master_key.rotated" | "signing_key.rotated" | "history.imported";
                /** @description operator, cli, service, or a key's id (ck_…) */
                actor?: string;
                /** @description inclusive; a date covers its whole UTC day */
                from?: string;
                /** @description inclusive; a date covers its whole UTC day */
                to?: string;
                /** @description csv: every matching entry, oldest first (or Accept: text/csv) */
                format?: "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page (JSON), or every matching entry (CSV, streamed) */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "id": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "action": "tenant.created",
                     *           "at": "2026-11-26T09:30:00.000Z",
                     *           "actor": {
                     *             "type": "string",
                     *             "id": "string"
                     *           },
                     *           "target": {
                     *             "type": "tenant",
                     *             "id": "string"
                     *           },
                     *           "details": {},
                     *           "stream": "string",
                     *           "revision": 1,
                     *           "eventHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "limit": 1,
                     *         "total": 1,
                     *         "pages": 1
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /**
                             * Format: uuid
                             * @description the ledger event's id
                             */
                            id: string;
                            action: "tenant.created" | "tenant.changed" | "key.issued" | "key.revoked" | "key.expired" | "webhook.created" | "webhook.changed" | "webhook.deleted" | "purpose.defined" | "purpose.changed" | "policy.published" | "policy.activated" | "policy.deactivated" | "policy.deleted" | "subject.erased" | "master_key.rotated" | "signing_key.rotated" | "history.imported";
                            /**
                             * Format: date-time
                             * @description when the change was appended to the ledger
                             */
                            at: string;
                            actor: {
                                /** @description key, operator (the admin API), cli or service (an expiry the service recorded) */
                                type: string;
                                /** @description the key's public id when the actor is a key */
                                id: string | null;
                            } | null;
                            target: {
                                type: "tenant" | "key" | "webhook" | "purpose" | "policy_version" | "subject" | "master_key" | "signing_key" | "import";
                                id: string | null;
                            };
                            /** @description what changed; never a secret */
                            details: {
                                [key: string]: unknown;
                            };
                            stream: string;
                            revision: number;
                            eventHash: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                    "text/csv": string;
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAuditLogProofById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "X-Read-Models-Behind": components["headers"]["X-Read-Models-Behind"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "event": {
                     *           "id": "string",
                     *           "tenantId": "string",
                     *           "stream": "string",
                     *           "revision": 1,
                     *           "type": "string",
                     *           "data": {},
                     *           "metadata": {},
                     *           "recordedAt": "string",
                     *           "prevHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         },
                     *         "eventHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                     *         "leafIndex": 1,
                     *         "treeSize": 1,
                     *         "inclusionPath": [
                     *           "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         ],
                     *         "checkpoint": "string",
                     *         "rootHash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description The event envelope: eventHash = hex SHA-256 of its RFC 8785 canonical JSON (docs/hashing.md) */
                            event: {
                                id: string;
                                tenantId: string;
                                stream: string;
                                revision: number;
                                type: string;
                                data: {
                                    [key: string]: unknown;
                                };
                                metadata: {
                                    [key: string]: unknown;
                                };
                                recordedAt: string;
                                prevHash: string | null;
                            };
                            eventHash: string;
                            leafIndex: number;
                            treeSize: number;
                            /** @description RFC 9162 §2.1.3 inclusion path, leaf side first */
                            inclusionPath: string[];
                            checkpoint: string;
                            rootHash: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSdkConsentLedgerJs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The module */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-RateLimit-Daily-Limit": components["headers"]["X-RateLimit-Daily-Limit"];
                    "X-RateLimit-Daily-Remaining": components["headers"]["X-RateLimit-Daily-Remaining"];
                    "X-RateLimit-Daily-Reset": components["headers"]["X-RateLimit-Daily-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConsoleSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "csrfToken": "string",
                     *         "expiresAt": "2026-11-26T09:30:00.000Z",
                     *         "scope": "string",
                     *         "tenantId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "tenantName": "string",
                     *         "apiKey": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description send it as X-CSRF-Token with every call that changes anything */
                            csrfToken: string;
                            /** Format: date-time */
                            expiresAt: string;
                            scope: string;
                            /** Format: uuid */
                            tenantId: string;
                            tenantName: string;
                            apiKey: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createConsoleSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "apiKey": "string",
                 *       "apiSecret": "string"
                 *     }
                 */
                "application/json": {
                    apiKey: string;
                    apiSecret: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "csrfToken": "string",
                     *         "expiresAt": "2026-11-26T09:30:00.000Z",
                     *         "scope": "string",
                     *         "tenantId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "tenantName": "string",
                     *         "apiKey": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description send it as X-CSRF-Token with every call that changes anything */
                            csrfToken: string;
                            /** Format: date-time */
                            expiresAt: string;
                            scope: string;
                            /** Format: uuid */
                            tenantId: string;
                            tenantName: string;
                            apiKey: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteConsoleSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "message": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            message: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAdminBackup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archive, streamed as it is taken */
            200: {
                headers: {
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict with the current state (see the error code); or the record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAdminTenants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": [
                     *         {
                     *           "tenantId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *           "name": "string",
                     *           "plan": "string",
                     *           "limits": {
                     *             "perMinute": 1,
                     *             "perDay": 1
                     *           },
                     *           "createdAt": "2026-11-26T09:30:00.000Z",
                     *           "keys": [
                     *             {
                     *               "apiKey": "string",
                     *               "name": "string",
                     *               "scope": "admin",
                     *               "createdAt": "2026-11-26T09:30:00.000Z",
                     *               "expiresAt": "2026-11-26T09:30:00.000Z",
                     *               "lastUsedAt": "2026-11-26T09:30:00.000Z",
                     *               "revokedAt": "2026-11-26T09:30:00.000Z",
                     *               "origins": [
                     *                 "string"
                     *               ],
                     *               "perMinute": 1,
                     *               "userTokenKey": "string"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            tenantId: string;
                            name: string;
                            plan: string;
                            limits: {
                                perMinute: number;
                                perDay: number;
                            };
                            /** Format: date-time */
                            createdAt: string;
                            keys: {
                                apiKey: string;
                                name: string | null;
                                /** @description admin: everything; write: record and withdraw (no reading records back); read: read, verify, prove, export, receipts (no writing); publishable: pk_… with no secret, records decisions from a browser on the origins it lists, nothing else (docs/browser.md) */
                                scope: "admin" | "write" | "read" | "publishable";
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                expiresAt: string | null;
                                /**
                                 * Format: date-time
                                 * @description to within a minute; null: never used
                                 */
                                lastUsedAt: string | null;
                                /** Format: date-time */
                                revokedAt: string | null;
                                /** @description publishable keys: the origins allowed */
                                origins?: string[];
                                /** @description publishable keys: the key's own budget per minute */
                                perMinute?: number;
                                /** @description publishable keys: the Ed25519 public key (32 bytes, base64url) the key's user tokens are signed by; null: it needs none */
                                userTokenKey?: string | null;
                            }[];
                        }[];
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAdminTenants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Acme Ltd",
                 *       "plan": "starter"
                 *     }
                 */
                "application/json": {
                    name: string;
                    plan: "free" | "starter" | "pro" | "business" | "enterprise";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "tenantId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "name": "string",
                     *         "plan": "string",
                     *         "apiKey": "string",
                     *         "apiSecret": "string",
                     *         "scope": "admin",
                     *         "keyName": "string",
                     *         "expiresAt": "2026-11-26T09:30:00.000Z",
                     *         "origins": [
                     *           "string"
                     *         ],
                     *         "perMinute": 1,
                     *         "userTokenKey": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            tenantId: string;
                            name: string;
                            plan: string;
                            apiKey: string;
                            /** @description shown once; only its hash is stored. Null for a publishable key, which has none */
                            apiSecret: string | null;
                            /** @description admin: everything; write: record and withdraw (no reading records back); read: read, verify, prove, export, receipts (no writing); publishable: pk_… with no secret, records decisions from a browser on the origins it lists, nothing else (docs/browser.md) */
                            scope: "admin" | "write" | "read" | "publishable";
                            keyName: string | null;
                            /** Format: date-time */
                            expiresAt: string | null;
                            origins?: string[];
                            perMinute?: number;
                            /** @description publishable keys: the Ed25519 public key (32 bytes, base64url) the key's user tokens are signed by; null: it needs none */
                            userTokenKey?: string | null;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAdminTenantsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "plan": "pro",
                 *       "limits": {
                 *         "perMinute": 600,
                 *         "perDay": 100000
                 *       }
                 *     }
                 */
                "application/json": {
                    plan?: "free" | "starter" | "pro" | "business" | "enterprise";
                    limits?: {
                        perMinute?: number | null;
                        perDay?: number | null;
                    } | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "tenantId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "name": "string",
                     *         "plan": "string",
                     *         "limits": {
                     *           "perMinute": 1,
                     *           "perDay": 1
                     *         },
                     *         "createdAt": "2026-11-26T09:30:00.000Z"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            tenantId: string;
                            name: string;
                            plan: string;
                            limits: {
                                perMinute: number;
                                perDay: number;
                            };
                            /** Format: date-time */
                            createdAt: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAdminTenantsKeysById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "scope": "read",
                 *       "name": "auditor",
                 *       "expiresAt": "2030-01-01T00:00:00.000Z"
                 *     }
                 */
                "application/json": {
                    /** @description admin: everything; write: record and withdraw (no reading records back); read: read, verify, prove, export, receipts (no writing); publishable: pk_… with no secret, records decisions from a browser on the origins it lists, nothing else (docs/browser.md) */
                    scope?: "admin" | "write" | "read" | "publishable";
                    /** @description a label of your own, e.g. "auditor 2027" */
                    name?: string;
                    /**
                     * Format: date-time
                     * @description when the key stops working (in the future); absent: never
                     */
                    expiresAt?: string;
                    /** @description publishable keys only (and required there): the origins (scheme://host[:port]) the key may be used from */
                    origins?: string[];
                    /** @description publishable keys only: the key's own budget per minute (default 60; per day 1,440 times it), apart from its tenant's */
                    perMinute?: number;
                    /** @description publishable keys only: an Ed25519 public key (PEM, or its 32 bytes in hex, base64 or base64url). With one, each decision the key records must carry X-User-Token, a JWT (EdDSA) your backend signs with the private key naming the userReference as its sub (docs/browser.md) */
                    userTokenKey?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "tenantId": "3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b",
                     *         "name": "string",
                     *         "plan": "string",
                     *         "apiKey": "string",
                     *         "apiSecret": "string",
                     *         "scope": "admin",
                     *         "keyName": "string",
                     *         "expiresAt": "2026-11-26T09:30:00.000Z",
                     *         "origins": [
                     *           "string"
                     *         ],
                     *         "perMinute": 1,
                     *         "userTokenKey": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** Format: uuid */
                            tenantId: string;
                            name: string;
                            plan: string;
                            apiKey: string;
                            /** @description shown once; only its hash is stored. Null for a publishable key, which has none */
                            apiSecret: string | null;
                            /** @description admin: everything; write: record and withdraw (no reading records back); read: read, verify, prove, export, receipts (no writing); publishable: pk_… with no secret, records decisions from a browser on the origins it lists, nothing else (docs/browser.md) */
                            scope: "admin" | "write" | "read" | "publishable";
                            keyName: string | null;
                            /** Format: date-time */
                            expiresAt: string | null;
                            origins?: string[];
                            perMinute?: number;
                            /** @description publishable keys: the Ed25519 public key (32 bytes, base64url) the key's user tokens are signed by; null: it needs none */
                            userTokenKey?: string | null;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Body too large (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAdminTenantsKeysByIdAndApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                apiKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "message": "string"
                     *       },
                     *       "meta": {
                     *         "timestamp": "2026-11-26T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            message: string;
                        };
                        meta: {
                            /** Format: date-time */
                            timestamp: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, details.errors names each field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or another tenant’s (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format 0.0.4 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or invalid credentials (UNAUTHORIZED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMIT_EXCEEDED) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
