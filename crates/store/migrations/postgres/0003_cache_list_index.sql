-- `sgw cache list` reads the cache a page at a time, most recently refreshed
-- first, ties by key (`Store::list_page`). An index on the whole list order
-- lets each page start at its cursor and stop after its entries, however
-- many entries share one refresh instant; it also serves every lookup the
-- single-column index on refreshed_at_ms served.
CREATE INDEX IF NOT EXISTS cache_by_list ON cache_entries
    (refreshed_at_ms, normalized_query, topic_type, jurisdiction_or_scope, effective_date);
DROP INDEX IF EXISTS cache_by_refreshed;
