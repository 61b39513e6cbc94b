-- Up Migration

-- A second, finer index over quote_search.words: the set of its 4-character substrings (hashed
-- to integers), in a GIN index. A term of 4 or more characters (after the same normalization as
-- `words`, see migration 1700000000010) can only be in a row holding all of the term's 4-grams,
-- so candidates are nearly exactly the matches: pg_trgm's trigrams of 'wore' ('wor', 'ore') are
-- each common and found 17,153 candidates for 607 matches at a million quotes; its one 4-gram
-- finds 607. Terms of 3 characters (and 1-letter words, 'ǂaǂ') keep the trigram index, whose one
-- trigram is already exact for them. Hash collisions only add candidates, which the heap check
-- (the term as a substring of `words`) removes. See src/lib/search-query.ts.
--
-- regexp_matches over the four offsets reads each string four times but linearly: substr(w, i,
-- 4) for every i is quadratic on multi-byte text (about twice as slow at 140 characters).
CREATE FUNCTION quote_search_quads(w text) RETURNS int[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT coalesce(array_agg(hashtext(m[1])), '{}')
      FROM generate_series(1, 4) AS k, regexp_matches(substr(w, k), '....', 'g') AS m
  $$;

SET LOCAL maintenance_work_mem = '256MB';
CREATE INDEX quote_search_words_quads ON quote_search USING gin (quote_search_quads(words));
-- ANALYZE would compute the expression for every sampled row (300,000 at a million quotes, about
-- 10 s) to keep statistics the service never asks the planner for: it picks the index itself.
ALTER INDEX quote_search_words_quads ALTER COLUMN 1 SET STATISTICS 0;

-- Down Migration
DROP INDEX quote_search_words_quads;
DROP FUNCTION quote_search_quads(text);
