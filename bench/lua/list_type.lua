-- List every version of one random type: GET /api/live_activity_schemas?attributesType=T.
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "common.lua")
common.install(_G)

local app, types

function init(args)
  common.seed()
  app = common.env("BENCH_APP")
  types = common.lines(common.env("BENCH_TYPES"))
end

function request()
  return wrk.format("GET", "/api/live_activity_schemas?application=" .. app .. "&attributesType=" .. types[math.random(#types)])
end
