-- Up Migration

-- The typographic apostrophe (’, U+2019) gets its own mark in quote_search.words: 'ǂǁǁǂ', where
-- the typewriter one (', U+0027) stays 'ǂǁǂ' (migration 1700000000060 wrote both alike). So a term
-- of ASCII letters, digits, apostrophes and single spaces ("it's", "yesterday's", "it's never")
-- is in a quote's text exactly when its key is in the quote's words, and the words table decides
-- it alone, as it does a phrase (migration 1700000000080): before, each candidate was also
-- checked against `quotes` to tell ' from ’ (a second heap block per match: `yesterday's`, 312
-- matches at a million quotes, 11.5 ms of its 15 in Postgres).
--
-- What any other search finds is unchanged: 'ǁǁ' stands between two 'ǂ' as 'ǁ' did, so a term of
-- letters and digits finds what it found before, and the key of a text's substring is still a
-- substring of the text's key, so a term with ’ (or any other character) finds at least its
-- matches among the candidates, and the quote's own text decides, as before. 'ǂǁǂ' is not within
-- 'ǂǁǁǂ', so a term's ' never finds a text's ’. The search vocabulary's words leave out the new
-- mark as they leave out 'ǁ'.
CREATE OR REPLACE FUNCTION quote_search_key(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT replace(replace(replace(
      regexp_replace(translate(lower(t), 'ǂǁǀ', '###'),
                     '[^[:alnum:]''’]*[^[:alnum:]''’ ][^[:alnum:]''’]*|  +', 'ǂǀǂ', 'g'),
      ' ', 'ǂ'), '''', 'ǂǁǂ'), '’', 'ǂǁǁǂ')
  $$;

CREATE OR REPLACE FUNCTION quote_search_tokens(words text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT DISTINCT t FROM string_to_table(words, 'ǂ') AS t WHERE t NOT IN ('', 'ǁ', 'ǁǁ', 'ǀ')
  $$;

-- Only the rows whose quote or author holds a ’ (4 of a million synthetic quotes, whose words are
-- ASCII; the seed's own quotes hold more); the indexes and the search vocabulary follow.
UPDATE quote_search s
   SET words = quote_search_words(q.quote, q.author)
  FROM quotes q
 WHERE q.num = s.num AND strpos(q.search_text, '’') > 0;
ANALYZE quote_search;

-- Down Migration
CREATE OR REPLACE FUNCTION quote_search_key(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT replace(replace(replace(
      regexp_replace(translate(lower(t), 'ǂǁǀ', '###'),
                     '[^[:alnum:]''’]*[^[:alnum:]''’ ][^[:alnum:]''’]*|  +', 'ǂǀǂ', 'g'),
      ' ', 'ǂ'), '''', 'ǂǁǂ'), '’', 'ǂǁǂ')
  $$;

CREATE OR REPLACE FUNCTION quote_search_tokens(words text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT DISTINCT t FROM string_to_table(words, 'ǂ') AS t WHERE t NOT IN ('', 'ǁ', 'ǀ') $$;

-- The rows that hold the mark.
UPDATE quote_search s
   SET words = quote_search_words(q.quote, q.author)
  FROM quotes q
 WHERE q.num = s.num AND strpos(s.words, 'ǁǁ') > 0;
ANALYZE quote_search;
