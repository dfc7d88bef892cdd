-- Helpers every task script starts with (LuaScript prepends this file).
--
-- A task is one string: a JSON object whose values are all strings (Lua's numbers are doubles, and cjson would
-- round long integers): id, owner, status (wire name), msg, created, updated, ttl, poll, meta, result, error
-- (JSON as text), om (its member in the owner's index), ak (the owner's active set), nq (outstanding requests),
-- and the objects q (key -> outstanding request), r (key -> response) and u (key -> '1', the key was used).
--
-- A change reads the task once (GET), decides in Lua, writes it once (SET KEEPTTL) and answers with the task as
-- it is afterwards: the reply is the JSON it wrote.

local TERMINAL = {completed = true, failed = true, cancelled = true}

-- Integers as Redis expects them: Lua numbers are doubles, and tostring may use an exponent.
local function int(n)
  return string.format('%.0f', n)
end

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The task and its JSON, or nil when there is none.
local function load(key)
  local raw = redis.call('GET', key)
  if not raw then
    return nil, nil
  end
  return cjson.decode(raw), raw
end

-- An object that stays an object when empty (cjson writes an empty table as {}; Java reads either).
local function entries(t)
  if t == nil then
    return {}
  end
  return t
end

-- Replaces the status message; absent means null.
local function set_message(task, has, message)
  if has == '1' then
    task.msg = message
  else
    task.msg = nil
  end
end

-- Stamps an applied change. lastUpdatedAt never goes back, even if the clock does.
local function stamp(task)
  local now = now_ms()
  local previous = tonumber(task.updated)
  if previous ~= nil and previous > now then
    now = previous
  end
  task.updated = int(now)
end

-- What a terminal status implies: no outstanding requests, and no longer counted as active.
local function settle(task, segment)
  task.q = nil
  task.nq = '0'
  if task.ak then
    redis.call('ZREM', task.ak, segment)
  end
end

-- Writes the task back, keeping its expiry; yields its JSON.
local function store(key, task)
  local raw = cjson.encode(task)
  redis.call('SET', key, raw, 'KEEPTTL')
  return raw
end

local function announce(channel, kind, status, id)
  redis.call('PUBLISH', channel, kind .. '|' .. status .. '|' .. id)
end

