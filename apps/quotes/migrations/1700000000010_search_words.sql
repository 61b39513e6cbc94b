-- Up Migration

-- Search reads a narrow side table instead of the quotes themselves: `words` is the quote and
-- the author, lower-cased, with every run of characters other than letters and digits replaced
-- by 'ǂ' (a letter that does not occur in the texts). pg_trgm takes letters and digits as word
-- characters, so its trigrams now span word boundaries ("at your" -> 'atǂyour' has the trigram
-- 'tǂy'): phrases find few candidates, and 'ǂofǂ' finds exactly the quotes with the word "of".
-- The quote and the author are joined by 'ǂǂ', which no normalized term contains, so a match
-- never spans them. See src/lib/search-query.ts for how the service uses it.
CREATE FUNCTION quote_search_key(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT regexp_replace(lower(t), '[^[:alnum:]]+', 'ǂ', 'g') $$;

CREATE FUNCTION quote_search_words(quote text, author text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT 'ǂ' || quote_search_key(quote) || 'ǂǂ' || quote_search_key(author) || 'ǂ' $$;

CREATE TABLE quote_search (
  num integer PRIMARY KEY,
  words text NOT NULL
);

-- Kept in step with quotes by statement-level triggers (one set-based statement per write, so
-- bulk loads stay fast), whoever writes the quotes.
CREATE FUNCTION quote_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM quote_search s USING old_rows o WHERE s.num = o.num;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO quote_search (num, words)
      SELECT num, quote_search_words(quote, author) FROM new_rows ORDER BY num;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER quotes_search_insert AFTER INSERT ON quotes
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quote_search_sync();
CREATE TRIGGER quotes_search_update AFTER UPDATE ON quotes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quote_search_sync();
CREATE TRIGGER quotes_search_delete AFTER DELETE ON quotes
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quote_search_sync();

-- In id order, so the table's physical order follows the ids (the total estimate relies on it
-- only for its precision, never for correctness).
INSERT INTO quote_search (num, words)
  SELECT num, quote_search_words(quote, author) FROM quotes ORDER BY num;

SET LOCAL maintenance_work_mem = '256MB';
CREATE INDEX quote_search_words_trgm ON quote_search USING gin (words gin_trgm_ops);
-- The old index on the wide table is no longer read (quotes.search_text stays: it is the exact
-- filter of terms with punctuation or spaces).
DROP INDEX quotes_search_text_trgm;
-- The planner's estimate of a LIKE on `words` tests the pattern against the column's histogram:
-- 1,000 entries (instead of 100) make it a sample fine enough to plan each term by (see
-- search-query.ts). ANALYZE then samples 300,000 rows (a few seconds at a million quotes).
ALTER TABLE quote_search ALTER COLUMN words SET STATISTICS 1000;
ANALYZE quote_search;

-- Down Migration
CREATE INDEX quotes_search_text_trgm ON quotes USING gin (search_text gin_trgm_ops);
DROP TABLE quote_search;
DROP FUNCTION quote_search_sync();
DROP FUNCTION quote_search_words(text, text);
DROP FUNCTION quote_search_key(text);
