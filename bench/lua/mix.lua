-- 90 % reads, 10 % writes: GET a random version of the seeded application (BENCH_APP), or
-- publish next-free to a random type of BENCH_PUBLISH_APP (BENCH_WRITE_PERCENT, default 10).
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "common.lua")
common.install(_G)

local app, types, versions, write_share, head, tail

function init(args)
  common.seed()
  app = common.env("BENCH_APP")
  types = common.lines(common.env("BENCH_TYPES"))
  versions = { "1", "2", "3", "4", "5" }
  write_share = tonumber(common.env("BENCH_WRITE_PERCENT", "10")) / 100
  head = '{"application":"' .. common.env("BENCH_PUBLISH_APP") .. '","attributesType":"'
  tail = '","jsonSchema":' .. common.json_string(common.read(common.env("BENCH_SCHEMA_FILE"))) .. '}'
end

function request()
  if math.random() < write_share then
    return wrk.format("POST", "/api/live_activity_schemas", { ["Authorization"] = wrk.headers["Authorization"],
      ["Content-Type"] = "application/json" }, head .. types[math.random(#types)] .. tail)
  end
  return wrk.format("GET", common.version_path(app, types, versions, ""))
end
