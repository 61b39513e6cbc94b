-- Up Migration

-- A third index over quote_search.words: the pairs of adjacent words (two runs of letters and
-- digits with a single 'ǂ' between them, that is a single space in the quote), hashed to
-- integers, in a GIN index. A phrase of words and single spaces (`when this`, migration
-- 1700000000080) is in a quote exactly when some pair there has a first word ending with the
-- phrase's first word and a second word starting with its last (its middle words, if any, are
-- whole words of pairs of their own). The search vocabulary (migration 1700000000070) lists
-- those words, so a phrase's candidates are the rows holding one of a handful of pairs: a posting
-- list about as long as the phrase's matches. The 4-gram index found them by intersecting the
-- posting lists of its common 4-grams (`when this`: six of 53,000-222,000 rows each, 20 ms of
-- decoding in the GIN scan for 1,241 candidates and 297 matches). See src/lib/search-pairs.ts.
--
-- Marks and empty runs are not words, so a pair never spans an apostrophe or any other
-- separator than a single space ('ǂǀǂ', 'ǂǁǂ'). Hash collisions only add candidates, which the
-- substring check removes.
CREATE FUNCTION quote_search_pairs(w text) RETURNS int[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT coalesce(array_agg(hashtext(t[i] || 'ǂ' || t[i + 1])), '{}')
      FROM string_to_array(w, 'ǂ') AS t, generate_series(1, cardinality(t) - 1) AS i
     WHERE t[i] NOT IN ('', 'ǁ', 'ǁǁ', 'ǀ') AND t[i + 1] NOT IN ('', 'ǁ', 'ǁǁ', 'ǀ')
  $$;

SET LOCAL maintenance_work_mem = '256MB';
CREATE INDEX quote_search_words_pairs ON quote_search USING gin (quote_search_pairs(words));
-- As for the 4-gram index (migration 30): the service picks the index itself.
ALTER INDEX quote_search_words_pairs ALTER COLUMN 1 SET STATISTICS 0;

-- Down Migration
DROP INDEX quote_search_words_pairs;
DROP FUNCTION quote_search_pairs(text);
