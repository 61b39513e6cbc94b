-- Up Migration

-- Search estimates how many quotes a term matches from the histogram ANALYZE keeps of the quotes'
-- own search text (src/lib/search-sample.ts), so that a term with punctuation is estimated by its
-- literal characters, as it is matched. 1,000 entries, as for quote_search.words (migration
-- 1700000000010, whose histogram the planner still uses to choose the plans of short terms): a
-- sample fine enough to plan each term by.
ALTER TABLE quotes ALTER COLUMN search_text SET STATISTICS 1000;
ANALYZE quotes;

-- Down Migration
ALTER TABLE quotes ALTER COLUMN search_text SET STATISTICS -1;
ANALYZE quotes;
