-- Up Migration

-- The search vocabulary: every word of quote_search.words (a run of letters and digits between
-- 'ǂ's, migrations 1700000000010 and 060) with the sorted ids of the quotes holding it. A term of
-- ASCII letters and digits (a substring, or a 1-2 character whole word) is found in
-- quote_search.words exactly when some word of the vocabulary holds it (it holds no 'ǂ', so it
-- lies within one word), so its matches are the union of those words' ids: counted and paged
-- from a few small arrays instead of a heap block per match. At a million quotes a term of 2,000
-- matches read about 1,000 scattered blocks of quote_search to be counted up to 1,001 and
-- estimated, then walked a few thousand rows for its page (20-40 ms cold); its words' arrays are
-- a few blocks. See src/lib/search-vocabulary.ts.
--
-- A word held by more than 10,000 quotes keeps no ids (nums is NULL, "common"): its array would
-- be rewritten with every new quote holding it, and a term matching it is common enough for the
-- planner's sample or the indexes (search-query.ts). A word stays common once it is.
CREATE TABLE quote_search_vocabulary (
  word text PRIMARY KEY,
  nums integer[]
);
-- Looked up by substring (LIKE '%term%'). Written rarely: no pending list, so a look-up never
-- reads one.
CREATE INDEX quote_search_vocabulary_trgm ON quote_search_vocabulary
  USING gin (word gin_trgm_ops) WITH (fastupdate = off);

-- Whether the vocabulary holds every quote. A large load-synthetic sets it false until it has
-- rebuilt it; meanwhile (and if it stopped in between, until `SELECT
-- quote_search_vocabulary_rebuild()` or the next load) search uses the indexes alone.
CREATE TABLE quote_search_vocabulary_state (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  ready boolean NOT NULL
);

-- The distinct words of a quote_search.words value (the marks between 'ǂ's are not words: 'ǁ'
-- for an apostrophe, and 'ǀ' for other separators than a single space, migration 080).
CREATE FUNCTION quote_search_tokens(words text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT DISTINCT t FROM string_to_table(words, 'ǂ') AS t WHERE t NOT IN ('', 'ǁ', 'ǀ') $$;

-- The whole vocabulary from quote_search, and marked ready. Writers of quote_search wait for it
-- (SHARE: searches do not): one that wrote meanwhile would be missing from it, its trigger having
-- seen the vocabulary set aside, or would collide with its words. Its grouping gets the memory it
-- needs whoever calls it (the migration, load-synthetic, a trigger, an operator).
CREATE FUNCTION quote_search_vocabulary_rebuild() RETURNS void
  LANGUAGE sql
  SET work_mem = '256MB'
  AS $$
    LOCK TABLE quote_search IN SHARE MODE;
    DELETE FROM quote_search_vocabulary;
    INSERT INTO quote_search_vocabulary (word, nums)
      SELECT t, CASE WHEN count(*) > 10000 THEN NULL ELSE array_agg(s.num ORDER BY s.num) END
        FROM quote_search s, quote_search_tokens(s.words) AS t
       GROUP BY t;
    INSERT INTO quote_search_vocabulary_state (ready) VALUES (true)
      ON CONFLICT (one) DO UPDATE SET ready = true;
  $$;

-- Kept in step with quote_search by statement-level triggers. A statement of more than 10,000
-- rows (a bulk load or removal) rebuilds the whole vocabulary, which is cheaper than merging that
-- many ids word by word; a smaller one updates the words it touches, in word order (two writers
-- lock them in the same order). Nothing while the vocabulary is not ready: a large load-synthetic
-- marks it so, loads, and rebuilds it once at the end.
CREATE FUNCTION quote_search_vocabulary_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched bigint;
BEGIN
  IF NOT coalesce((SELECT ready FROM quote_search_vocabulary_state), false) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO touched FROM new_rows;
  ELSE
    SELECT count(*) INTO touched FROM old_rows;
  END IF;
  IF touched > 10000 THEN
    PERFORM quote_search_vocabulary_rebuild();
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE quote_search_vocabulary v
       SET nums = ARRAY(SELECT unnest(v.nums) EXCEPT SELECT unnest(g.nums) ORDER BY 1)
      FROM (SELECT t AS word, array_agg(o.num) AS nums
              FROM old_rows o, quote_search_tokens(o.words) AS t GROUP BY t) g
     WHERE v.word = g.word AND v.nums IS NOT NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO quote_search_vocabulary AS v (word, nums)
      SELECT t, CASE WHEN count(*) > 10000 THEN NULL ELSE array_agg(n.num ORDER BY n.num) END
        FROM new_rows n, quote_search_tokens(n.words) AS t
       GROUP BY t ORDER BY t
    ON CONFLICT (word) DO UPDATE
      SET nums = CASE
        WHEN v.nums IS NULL OR excluded.nums IS NULL
          OR cardinality(v.nums) + cardinality(excluded.nums) > 10000 THEN NULL
        ELSE ARRAY(SELECT unnest(v.nums) UNION SELECT unnest(excluded.nums) ORDER BY 1)
      END;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER quote_search_vocabulary_insert AFTER INSERT ON quote_search
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quote_search_vocabulary_sync();
CREATE TRIGGER quote_search_vocabulary_update AFTER UPDATE ON quote_search
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quote_search_vocabulary_sync();
CREATE TRIGGER quote_search_vocabulary_delete AFTER DELETE ON quote_search
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quote_search_vocabulary_sync();

-- About 50 s at a million quotes on 2 cores (16,000 words; 45 MB).
SELECT quote_search_vocabulary_rebuild();
ANALYZE quote_search_vocabulary;

-- Down Migration
DROP TRIGGER quote_search_vocabulary_insert ON quote_search;
DROP TRIGGER quote_search_vocabulary_update ON quote_search;
DROP TRIGGER quote_search_vocabulary_delete ON quote_search;
DROP FUNCTION quote_search_vocabulary_sync();
DROP FUNCTION quote_search_vocabulary_rebuild();
DROP FUNCTION quote_search_tokens(text);
DROP TABLE quote_search_vocabulary_state;
DROP TABLE quote_search_vocabulary;
