-- Publish next-free (no version in the body) to a random type of BENCH_PUBLISH_APP, or always
-- to BENCH_HOT_TYPE when set. The schema is BENCH_SCHEMA_FILE, the same text pgbench inserts.
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "common.lua")
common.install(_G)

local types, hot, head, tail

function init(args)
  common.seed()
  types = common.lines(common.env("BENCH_TYPES"))
  hot = os.getenv("BENCH_HOT_TYPE")
  if hot == "" then hot = nil end
  head = '{"application":"' .. common.env("BENCH_PUBLISH_APP") .. '","attributesType":"'
  tail = '","jsonSchema":' .. common.json_string(common.read(common.env("BENCH_SCHEMA_FILE"))) .. '}'
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  return wrk.format("POST", "/api/live_activity_schemas", nil, head .. (hot or types[math.random(#types)]) .. tail)
end
