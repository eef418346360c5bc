-- One wrk script for every phase of benchmarks/apiserver/run.sh, chosen by the
-- environment: OP = create | get | list | patch | delete, N = objects (ConfigMaps
-- obj-0 .. obj-(N-1) in namespace "bench"), THREADS = wrk's -t.
-- create and delete touch each object once and stop when done, so their rate is
-- objects per second; get and patch cycle over the objects for the whole run.
local op = os.getenv("OP")
local n = tonumber(os.getenv("N") or "2000")
local threads = tonumber(os.getenv("THREADS") or "4")
local base = "/api/v1/namespaces/bench/configmaps"
local made = 0

function setup(thread)
  thread:set("tid", made)
  made = made + 1
end

function init(args)
  per = math.floor(n / threads)
  first = tid * per
  i = 0
  ok = 0
end

local function name(k)
  return "obj-" .. k
end

function request()
  local k = first + (i % per)
  if op == "create" or op == "delete" then
    -- By the objects done so far (one request in flight per connection): wrk may
    -- build a request it never sends, which must not skip a name.
    k = first + ok
  end
  i = i + 1
  if op == "create" then
    local body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"' .. name(k) ..
      '","labels":{"app":"bench"}},"data":{"key":"value"}}'
    return wrk.format("POST", base, {["Content-Type"] = "application/json"}, body)
  elseif op == "get" then
    return wrk.format("GET", base .. "/" .. name(k))
  elseif op == "list" then
    return wrk.format("GET", base .. "?limit=500")
  elseif op == "patch" then
    local body = '{"data":{"key":"v' .. i .. '"}}'
    return wrk.format("PATCH", base .. "/" .. name(k),
      {["Content-Type"] = "application/merge-patch+json"}, body)
  elseif op == "delete" then
    return wrk.format("DELETE", base .. "/" .. name(k))
  end
end

function response(status, headers, body)
  if status < 300 then
    ok = ok + 1
  end
  if (op == "create" or op == "delete") and ok >= per then
    wrk.thread:stop()
  end
end
