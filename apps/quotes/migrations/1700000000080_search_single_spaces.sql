-- Up Migration

-- A single space gets its own writing in quote_search.words: 'ǂ' now stands for exactly one
-- space between letters or digits, and any other run of separators (punctuation, several spaces,
-- a tab, a line break, a no-break space) is written 'ǂǀǂ'. So a phrase of ASCII words and single
-- spaces ("are for") is in a quote's text exactly when its key ('areǂfor') is in the quote's
-- words, and the words table decides it alone, as it does a single word: before, 'ǂ' stood for
-- any run ("are, for" too), so each candidate was checked against `quotes` (a second heap block
-- per match: `be at`, 923 matches, read 1,329 blocks of quote_search and 3,692 buffers of quotes
-- at a million quotes).
--
-- What any other search finds is unchanged: the 'ǂ's on both sides of the mark keep every word
-- boundary where it was (a term of letters and digits finds what it found before), and the key of
-- any text's substring is still a substring of the text's key (a run of a term's separators within
-- a longer run of the text's is written 'ǂǀǂ' there as well, or a single 'ǂ' at the term's edge,
-- which 'ǂǀǂ' holds), so a term with other characters finds at least its matches among the
-- candidates, and the quote's own text decides, as before. The marks themselves ('ǂ', 'ǁ', 'ǀ'),
-- should a text hold them, are read as separators first, so no text writes a mark.
CREATE OR REPLACE FUNCTION quote_search_key(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT replace(replace(replace(
      regexp_replace(translate(lower(t), 'ǂǁǀ', '###'),
                     '[^[:alnum:]''’]*[^[:alnum:]''’ ][^[:alnum:]''’]*|  +', 'ǂǀǂ', 'g'),
      ' ', 'ǂ'), '''', 'ǂǁǂ'), '’', 'ǂǁǂ')
  $$;

-- Every row whose words change (nearly all: any punctuation); the indexes and the search
-- vocabulary follow (its trigger rebuilds it once: its words change only where a text held one
-- of the marks, which no longer glues letters into one word). At a million synthetic quotes it
-- rewrites 1,007,653 rows in 10-13 minutes on 2 cores.
UPDATE quote_search s
   SET words = quote_search_words(q.quote, q.author)
  FROM quotes q
 WHERE q.num = s.num AND s.words IS DISTINCT FROM quote_search_words(q.quote, q.author);
ANALYZE quote_search;

-- Down Migration
CREATE OR REPLACE FUNCTION quote_search_key(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT replace(replace(regexp_replace(lower(t), '[^[:alnum:]''’]+', 'ǂ', 'g'), '''', 'ǂǁǂ'), '’', 'ǂǁǂ')
  $$;

-- The rows that hold the mark (every row Up rewrote: a text's marks were written as separators).
UPDATE quote_search s
   SET words = quote_search_words(q.quote, q.author)
  FROM quotes q
 WHERE q.num = s.num AND strpos(s.words, 'ǀ') > 0;
ANALYZE quote_search;
