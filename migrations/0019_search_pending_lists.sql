-- Search's GIN indexes without a long pending list. A GIN index gathers new entries in an
-- unsorted pending list (up to gin_pending_list_limit, 4 MB by default) until a vacuum or an
-- insert past the limit merges them into the index, and every search reads the whole list. The
-- planner costs each pending page as a random read, so after a bulk write (an import, a backfill
-- of field paths) a sequential scan looked cheaper than the index on tables of thousands of rows.
--
-- Names, type metadata and version labels are written rarely (a type's first publish, a metadata
-- or label edit): they go straight into the index. Field paths are written by every publish (a
-- row per path): their list stays, at most 256 kB (32 pages), so a publish still appends its
-- paths and only an occasional insert merges the list.
ALTER INDEX schema_version_counters_name_trgm SET (fastupdate = off);
ALTER INDEX type_metadata_description_trgm SET (fastupdate = off);
ALTER INDEX type_metadata_owner_trgm SET (fastupdate = off);
ALTER INDEX type_metadata_labels SET (fastupdate = off);
ALTER INDEX schema_versions_live_labels SET (fastupdate = off);
ALTER INDEX version_fields_path_trgm SET (gin_pending_list_limit = 256);

-- The settings apply to later inserts; merge what is pending now.
SELECT gin_clean_pending_list(index_name::regclass)
FROM unnest(ARRAY['schema_version_counters_name_trgm', 'type_metadata_description_trgm', 'type_metadata_owner_trgm',
                  'type_metadata_labels', 'schema_versions_live_labels', 'version_fields_path_trgm']) AS index_name
