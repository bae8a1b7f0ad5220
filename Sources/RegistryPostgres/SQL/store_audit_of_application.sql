-- page: at most $7 events, newest first, each with its details as text (a text over $8 bytes,
-- written before reports were bounded, is replaced by a note of its size). Then only the events
-- that start within the page's $9 bytes of details are sent, so the page's memory is bounded
-- whatever the rows hold, and the caller ends its page before the one that crosses $9.
WITH page AS (
    SELECT e.id, to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, e.account_id, e.actor, e.token_id,
    e.token_name, e.action, a.code, e.attributes_type, e.version, e.request_id,
    CASE WHEN octet_length(e.details::text) <= $8::bigint THEN e.details::text
         ELSE jsonb_build_object('omitted', 'details over ' || $8::bigint || ' bytes are not shown', 'bytes', octet_length(e.details::text))::text
    END AS details
    FROM audit_events AS e LEFT JOIN applications AS a ON a.id = e.application_id
    WHERE e.application_id = $1::bigint AND ($2::text IS NULL OR e.attributes_type = $2::text) AND ($3::text IS NULL OR e.action = $3::text)
    AND ($4::float8 IS NULL OR e.at >= to_timestamp($4::float8)) AND ($5::float8 IS NULL OR e.at < to_timestamp($5::float8)) AND ($6::bigint IS NULL OR e.id < $6::bigint)
    ORDER BY e.id DESC LIMIT $7::bigint
), sized AS (
    SELECT page.*, sum(octet_length(page.details)) OVER (ORDER BY page.id DESC ROWS UNBOUNDED PRECEDING) - octet_length(page.details) AS before
    FROM page
)
SELECT id, at, account_id, actor, token_id, token_name, action, code, attributes_type, version, request_id, details
FROM sized WHERE before <= $9::bigint ORDER BY id DESC
