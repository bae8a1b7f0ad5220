-- GET one version (or, with BENCH_SUFFIX=/form, its form) of a random type of the seeded
-- application. BENCH_VERSIONS: "1,2,3,4,5" (default) or a single version.
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "common.lua")
common.install(_G)

local app, types, versions, suffix

function init(args)
  common.seed()
  app = common.env("BENCH_APP")
  types = common.lines(common.env("BENCH_TYPES"))
  versions = {}
  for v in common.env("BENCH_VERSIONS", "1,2,3,4,5"):gmatch("%d+") do versions[#versions + 1] = v end
  suffix = common.env("BENCH_SUFFIX", "")
end

function request()
  return wrk.format("GET", common.version_path(app, types, versions, suffix))
end
