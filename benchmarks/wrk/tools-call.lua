-- wrk script of the MCP load benchmark (see benchmarks/run.sh and docs/benchmarks.md).
--
-- Every request is the same tools/call POST, with a fresh JSON-RPC id (ids must not be reused within a session),
-- the Mcp-Session-Id of a session that run.sh initialized beforehand, and MCP-Protocol-Version. The echo
-- baseline gets exactly the same requests (its session id is a dummy it ignores), so both servers read the same
-- bytes and answer with a body of about the same size.
--
-- Usage: wrk -t1 -c64 -d15s --latency -s tools-call.lua http://127.0.0.1:PORT/mcp -- SESSIONS_FILE [PROTOCOL [check]]
--   SESSIONS_FILE  one session id per line; requests go round-robin over them. The single word "stateless" instead
--                  sends 2026-07-28 requests: no session, the version and capabilities in params._meta, and the
--                  Mcp-Method and Mcp-Name routing headers that revision requires
--   PROTOCOL       MCP-Protocol-Version header value, 2025-11-25 unless given
--   check          "check" (default) or "nocheck"
--
-- With "check", every response is checked: a non-200 status, or a body without the echoed text, counts as "bad",
-- so a run that measured error responses cannot pass for a good one. Checking costs the client a Lua call per
-- response, so run.sh checks during the warm-up and measures with "nocheck" (wrk still counts non-2xx statuses).
-- done() prints one machine-readable BENCH line.

local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("index", thread_count)
  table.insert(threads, thread)
end

local sessions = {}
local counter = 0
local stateless = false
local prefix = '{"jsonrpc":"2.0","id":'
local suffix = ',"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, benchmark"}}}'
-- MCP_TOOL=greet calls the examples' greet tool instead (benchmarks/cluster.sh runs the examples jar); its answer,
-- "Hello, hello, benchmark!", carries the same text for the check.
if os.getenv("MCP_TOOL") == "greet" then
  suffix = ',"method":"tools/call","params":{"name":"greet","arguments":{"name":"hello, benchmark"}}}'
end
local headers = {}
bad = 0
bad_sample = nil

function init(args)
  local file = args[1]
  if file == nil then
    error("usage: -- SESSIONS_FILE [PROTOCOL]")
  end
  for line in io.lines(file) do
    if line ~= "" then
      table.insert(sessions, line)
    end
  end
  if #sessions == 0 then
    error("no session ids in " .. file)
  end
  headers["Content-Type"] = "application/json"
  headers["Accept"] = "application/json, text/event-stream"
  headers["MCP-Protocol-Version"] = args[2] or "2025-11-25"
  if sessions[1] == "stateless" then
    stateless = true
    headers["MCP-Protocol-Version"] = "2026-07-28"
    headers["Mcp-Method"] = "tools/call"
    headers["Mcp-Name"] = "echo"
    suffix = ',"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, benchmark"},'
        .. '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
        .. '"io.modelcontextprotocol/clientCapabilities":{}}}}'
  end
  -- Ids unique across threads: thread i counts from i * 10^12.
  counter = (index or 1) * 1000000000000
  if args[3] == "nocheck" then
    response = nil -- wrk then skips handing responses to Lua
  end
end

function request()
  counter = counter + 1
  if not stateless then
    headers["Mcp-Session-Id"] = sessions[(counter % #sessions) + 1]
  end
  return wrk.format("POST", nil, headers, prefix .. counter .. suffix)
end

function response(status, resp_headers, body)
  if status ~= 200 or body == nil or not string.find(body, "hello, benchmark", 1, true) then
    bad = bad + 1
    if bad_sample == nil then
      bad_sample = status .. " " .. tostring(body)
    end
  end
end

function done(summary, latency, requests)
  local bad_total = 0
  local sample = nil
  for _, thread in ipairs(threads) do
    bad_total = bad_total + (thread:get("bad") or 0)
    sample = sample or thread:get("bad_sample")
  end
  local errors = summary.errors
  local socket_errors = errors.connect + errors.read + errors.write + errors.timeout
  io.write(string.format(
      "BENCH requests=%d duration_us=%d rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d mean_us=%.1f "
          .. "non2xx=%d socket_errors=%d bad=%d\n",
      summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
      errors.status, socket_errors, bad_total))
  if sample ~= nil then
    io.write("BENCH-BAD-SAMPLE " .. string.sub(sample, 1, 300) .. "\n")
  end
end
