-- Up Migration

-- Trigram indexes serve case-insensitive substring search without scanning the table.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE quotes (
  -- The public id is 'q' || num; ordering by num keeps search pages stable.
  num integer PRIMARY KEY CHECK (num > 0),
  quote text NOT NULL CHECK (length(quote) > 0),
  author text NOT NULL CHECK (length(author) > 0),
  -- 'quotable' and 'fortunes' come from the seed file; 'synthetic' from the scale-test loader.
  source text NOT NULL,
  -- What search matches: the quote and the author, lower-cased once at write time. The unit
  -- separator between them cannot occur in a search term (control characters are rejected),
  -- so a match never spans the quote and the author.
  search_text text GENERATED ALWAYS AS (lower(quote || E'\x1f' || author)) STORED
);

CREATE INDEX quotes_search_text_trgm ON quotes USING gin (search_text gin_trgm_ops);

-- Down Migration
DROP TABLE quotes;
