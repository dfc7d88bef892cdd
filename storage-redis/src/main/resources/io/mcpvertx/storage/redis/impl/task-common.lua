-- Helpers every task script starts with (LuaScript prepends this file).
--
-- A task is one hash: id, owner, status (wire name), msg, created, updated, ttl, poll, meta, result, error (JSON
-- as text), om (its member in the owner's index), ak (the owner's active set), nq (outstanding requests), and per
-- input key: q:<key> the outstanding request, r:<key> the response, u:<key> the key was used.

local TERMINAL = {completed = true, failed = true, cancelled = true}

-- Integers as Redis expects them: Lua numbers are doubles, and tostring may use an exponent.
local function int(n)
  return string.format('%.0f', n)
end

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Stamps an applied change. lastUpdatedAt never goes back, even if the clock does.
local function touch(key, now)
  local previous = tonumber(redis.call('HGET', key, 'updated'))
  if previous ~= nil and previous > now then
    now = previous
  end
  redis.call('HSET', key, 'updated', int(now))
end

-- Replaces the status message; absent means null.
local function set_message(key, has, message)
  if has == '1' then
    redis.call('HSET', key, 'msg', message)
  else
    redis.call('HDEL', key, 'msg')
  end
end

-- What a terminal status implies: no outstanding requests, and no longer counted as active.
local function settle(key, segment)
  local fields = redis.call('HKEYS', key)
  for i = 1, #fields do
    if string.sub(fields[i], 1, 2) == 'q:' then
      redis.call('HDEL', key, fields[i])
    end
  end
  redis.call('HSET', key, 'nq', 0)
  local active = redis.call('HGET', key, 'ak')
  if active then
    redis.call('ZREM', active, segment)
  end
end

local function announce(channel, kind, status, id)
  redis.call('PUBLISH', channel, kind .. '|' .. status .. '|' .. id)
end

