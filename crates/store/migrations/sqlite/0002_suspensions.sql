-- Provider suspensions that outlive the process (see sgw_contract::SuspensionLedger).
CREATE TABLE IF NOT EXISTS provider_suspensions (
    provider TEXT PRIMARY KEY,
    until_ms BIGINT NOT NULL,
    reason TEXT NOT NULL,
    consecutive_timeouts BIGINT NOT NULL DEFAULT 0
);
