-- Helpers every task script starts with (LuaScript prepends this file).
--
-- A task is one hash: id, owner, status (wire name), msg, created, updated, ttl, poll, meta, result, error (JSON
-- as text), om (its member in the owner's index), ak (the owner's active set), nq (outstanding requests), and per
-- input key: q:<key> the outstanding request, r:<key> the response, u:<key> the key was used.
--
-- A change reads the task once (HGETALL), decides in Lua, writes with one HSET and at most one HDEL, and answers
-- with the task as it is afterwards, built from what it read and wrote: no command re-reads a field.

local TERMINAL = {completed = true, failed = true, cancelled = true}

-- Integers as Redis expects them: Lua numbers are doubles, and tostring may use an exponent.
local function int(n)
  return string.format('%.0f', n)
end

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The task's fields by name, or nil when there is no task.
local function load(key)
  local flat = redis.call('HGETALL', key)
  if #flat == 0 then
    return nil
  end
  local task = {}
  for i = 1, #flat, 2 do
    task[flat[i]] = flat[i + 1]
  end
  return task
end

-- A change in the making: the fields to set and the fields to delete.
local function change()
  return {sets = {}, dels = {}}
end

local function set(c, name, value)
  table.insert(c.sets, name)
  table.insert(c.sets, value)
end

-- Replaces the status message; absent means null.
local function set_message(c, task, has, message)
  if has == '1' then
    set(c, 'msg', message)
  elseif task.msg ~= nil then
    table.insert(c.dels, 'msg')
  end
end

-- Stamps an applied change. lastUpdatedAt never goes back, even if the clock does.
local function stamp(c, task)
  local now = now_ms()
  local previous = tonumber(task.updated)
  if previous ~= nil and previous > now then
    now = previous
  end
  set(c, 'updated', int(now))
end

-- What a terminal status implies: no outstanding requests, and no longer counted as active.
local function settle(c, task, segment)
  for name in pairs(task) do
    if string.sub(name, 1, 2) == 'q:' then
      table.insert(c.dels, name)
    end
  end
  set(c, 'nq', '0')
  if task.ak then
    redis.call('ZREM', task.ak, segment)
  end
end

-- Writes the change and applies it to the task read before.
local function apply(key, task, c)
  if #c.dels > 0 then
    redis.call('HDEL', key, unpack(c.dels))
    for i = 1, #c.dels do
      task[c.dels[i]] = nil
    end
  end
  redis.call('HSET', key, unpack(c.sets))
  for i = 1, #c.sets, 2 do
    task[c.sets[i]] = c.sets[i + 1]
  end
end

-- {head, name, value, ...}: the reply shape TaskCodec reads.
local function reply(head, task)
  local out = {head}
  for name, value in pairs(task) do
    table.insert(out, name)
    table.insert(out, value)
  end
  return out
end

local function announce(channel, kind, status, id)
  redis.call('PUBLISH', channel, kind .. '|' .. status .. '|' .. id)
end

