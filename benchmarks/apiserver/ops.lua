-- One wrk script for every phase of benchmarks/apiserver/run.sh, chosen by the
-- environment: OP = create | get | get0 | list | patch | apply | delete, ENC = json |
-- protobuf, N = objects (ConfigMaps obj-0 .. obj-(N-1) in namespace "bench"), THREADS =
-- wrk's -t, TOKEN = the bearer token every request carries (the same for every server).
-- create and delete touch each object once and stop when done, so their rate is
-- objects per second; get, patch and apply cycle over the objects for the whole run.
local op = os.getenv("OP")
local n = tonumber(os.getenv("N") or "2000")
local threads = tonumber(os.getenv("THREADS") or "4")
local token = os.getenv("TOKEN")
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

-- ENC=protobuf: requests and answers in application/vnd.kubernetes.protobuf (patch
-- bodies stay merge-patch JSON, as in Go). The ConfigMap a create sends is encoded here:
-- the k8s\0 envelope around runtime.Unknown{typeMeta, raw ConfigMap}.
local protobuf = os.getenv("ENC") == "protobuf"
local PB = "application/vnd.kubernetes.protobuf"

local function varint(n)
  local out = ""
  while n >= 128 do
    out = out .. string.char(n % 128 + 128)
    n = math.floor(n / 128)
  end
  return out .. string.char(n)
end

local function field(tag, bytes)
  return string.char(tag) .. varint(#bytes) .. bytes
end

local function configmap_protobuf(nm)
  local label = field(0x0a, "app") .. field(0x12, "bench")
  local meta = field(0x0a, nm) .. field(0x5a, label)
  local data = field(0x0a, "key") .. field(0x12, "value")
  local cm = field(0x0a, meta) .. field(0x12, data)
  local type_meta = field(0x0a, "v1") .. field(0x12, "ConfigMap")
  return "k8s\0" .. field(0x0a, type_meta) .. field(0x12, cm) ..
    field(0x1a, "") .. field(0x22, "")
end

local function headers(extra)
  local h = extra or {}
  if protobuf then
    h["Accept"] = PB
  end
  if token then
    h["Authorization"] = "Bearer " .. token
  end
  return h
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
    if protobuf then
      return wrk.format("POST", base, headers({["Content-Type"] = PB}),
        configmap_protobuf(name(k)))
    end
    local body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"' .. name(k) ..
      '","labels":{"app":"bench"}},"data":{"key":"value"}}'
    return wrk.format("POST", base, headers({["Content-Type"] = "application/json"}), body)
  elseif op == "get" then
    return wrk.format("GET", base .. "/" .. name(k), headers())
  elseif op == "get0" then
    -- resourceVersion=0: any recent state, served from the watch cache.
    return wrk.format("GET", base .. "/" .. name(k) .. "?resourceVersion=0", headers())
  elseif op == "list" then
    return wrk.format("GET", base .. "?limit=500", headers())
  elseif op == "patch" then
    local body = '{"data":{"key":"v' .. i .. '"}}'
    return wrk.format("PATCH", base .. "/" .. name(k),
      headers({["Content-Type"] = "application/merge-patch+json"}), body)
  elseif op == "apply" then
    -- Server-side apply (YAML's JSON form), forcing ownership of what create wrote.
    local body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"' .. name(k) ..
      '"},"data":{"key":"a' .. i .. '"}}'
    return wrk.format("PATCH", base .. "/" .. name(k) .. "?fieldManager=bench&force=true",
      headers({["Content-Type"] = "application/apply-patch+yaml"}), body)
  elseif op == "delete" then
    return wrk.format("DELETE", base .. "/" .. name(k), headers())
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
