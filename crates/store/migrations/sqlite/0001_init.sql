-- sgw-store schema v1 (SQLite). Times are Unix milliseconds (UTC).

CREATE TABLE evidence (
    id                    TEXT PRIMARY KEY,          -- ev-<ULID>
    normalized_query      TEXT NOT NULL,
    topic_type            TEXT NOT NULL,
    jurisdiction_or_scope TEXT NOT NULL,
    effective_date        TEXT NOT NULL,
    tier                  TEXT NOT NULL,
    publisher             TEXT,
    url                   TEXT NOT NULL,
    final_url             TEXT,
    title                 TEXT NOT NULL,
    extracted_at_ms       BIGINT NOT NULL,
    published_at          TEXT,
    answer_fields         TEXT NOT NULL,             -- JSON object
    confidence            DOUBLE PRECISION,
    content_hash          TEXT NOT NULL,
    extraction_method     TEXT NOT NULL,
    text_zstd             BLOB NOT NULL,             -- zstd of the UTF-8 text
    text_len              BIGINT NOT NULL,           -- bytes before compression
    passages              TEXT NOT NULL,             -- JSON array of Passage
    etag                  TEXT,
    last_modified         TEXT,
    extra                 TEXT NOT NULL              -- JSON: metadata, tier_hint, snippet_only, truncated
);
CREATE INDEX evidence_by_key ON evidence (normalized_query, topic_type, jurisdiction_or_scope, effective_date);
CREATE INDEX evidence_by_hash ON evidence (content_hash);

CREATE TABLE cache_entries (
    normalized_query      TEXT NOT NULL,
    topic_type            TEXT NOT NULL,
    jurisdiction_or_scope TEXT NOT NULL,
    effective_date        TEXT NOT NULL,
    result                TEXT NOT NULL,             -- JSON SearchResult
    evidence_ids          TEXT NOT NULL,             -- JSON array
    confidence            DOUBLE PRECISION,
    created_at_ms         BIGINT NOT NULL,
    refreshed_at_ms       BIGINT NOT NULL,
    stale_after_ms        BIGINT NOT NULL,
    PRIMARY KEY (normalized_query, topic_type, jurisdiction_or_scope, effective_date)
);
CREATE INDEX cache_by_topic ON cache_entries (topic_type);
CREATE INDEX cache_by_stale_after ON cache_entries (stale_after_ms);
CREATE INDEX cache_by_refreshed ON cache_entries (refreshed_at_ms);

-- Which evidence each cache entry cites (so a purge only drops unreferenced evidence).
CREATE TABLE cache_evidence (
    normalized_query      TEXT NOT NULL,
    topic_type            TEXT NOT NULL,
    jurisdiction_or_scope TEXT NOT NULL,
    effective_date        TEXT NOT NULL,
    evidence_id           TEXT NOT NULL,
    PRIMARY KEY (normalized_query, topic_type, jurisdiction_or_scope, effective_date, evidence_id),
    FOREIGN KEY (normalized_query, topic_type, jurisdiction_or_scope, effective_date)
        REFERENCES cache_entries (normalized_query, topic_type, jurisdiction_or_scope, effective_date)
        ON DELETE CASCADE
);
CREATE INDEX cache_evidence_by_evidence ON cache_evidence (evidence_id);

CREATE TABLE human_requests (
    id                    TEXT PRIMARY KEY,          -- hr-<ULID>
    status                TEXT NOT NULL CHECK (status IN ('open', 'resolved', 'cancelled')),
    normalized_query      TEXT NOT NULL,
    topic_type            TEXT NOT NULL,
    jurisdiction_or_scope TEXT NOT NULL,
    effective_date        TEXT NOT NULL,
    query                 TEXT NOT NULL,
    attempts              TEXT NOT NULL,             -- JSON array of Attempt
    blocked               TEXT NOT NULL,             -- JSON array of BlockedUrl
    created_at_ms         BIGINT NOT NULL,
    resolved_at_ms        BIGINT,
    evidence_id           TEXT REFERENCES evidence (id)
);
CREATE INDEX human_requests_by_status ON human_requests (status, created_at_ms);
CREATE INDEX human_requests_by_evidence ON human_requests (evidence_id);

CREATE TABLE screenshots (
    id                    TEXT PRIMARY KEY,          -- ss-<ULID>
    evidence_id           TEXT NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
    mime                  TEXT NOT NULL,
    bytes                 BLOB NOT NULL,
    created_at_ms         BIGINT NOT NULL
);
CREATE INDEX screenshots_by_evidence ON screenshots (evidence_id);
