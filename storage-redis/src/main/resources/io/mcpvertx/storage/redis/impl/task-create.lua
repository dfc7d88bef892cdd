-- Creates a task unless its id is taken or its owner is at the limit of active tasks.
-- KEYS[1] the task, KEYS[2] the owner's tasks in creation order, KEYS[3] the owner's entries by expiry,
-- KEYS[4] the owner's active tasks, KEYS[5] the task's abandon marker (set when the caller gave up on this create)
-- ARGV[1] id, ARGV[2] owner, ARGV[3] ttl ms or '', ARGV[4] 1 when the ttl sets a Redis expiry, ARGV[5] poll ms
-- or '', ARGV[6] metadata JSON, ARGV[7] the limit (0 for none), ARGV[8] the task's segment, ARGV[9] the key
-- prefix of the owner's tasks (prefix .. segment is a task key)
-- Returns {'ok', task JSON} or {'duplicate'} or {'limit'}.
if redis.call('EXISTS', KEYS[1], KEYS[5]) > 0 then
  return {'duplicate'}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expires = '+inf'
if ARGV[4] == '1' then
  expires = int(now + tonumber(ARGV[3]))
end

-- The active set is trimmed only when it looks full: entries of expired tasks leave it then, so below the limit
-- it costs one ZCARD. Without a limit it is trimmed past 128 entries, which keeps it bounded all the same.
local limit = tonumber(ARGV[7])
local active = redis.call('ZCARD', KEYS[4])
if active >= (limit > 0 and limit or 128) then
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. int(now))
  active = redis.call('ZCARD', KEYS[4])
  if limit > 0 and active >= limit then
    -- At the limit: make sure every entry still stands for an active task of this owner (a task key can vanish
    -- before its expiry, e.g. by eviction). Bounded by the limit.
    local members = redis.call('ZRANGE', KEYS[4], 0, -1)
    for i = 1, #members do
      local raw = redis.call('GET', ARGV[9] .. members[i])
      local task = raw and cjson.decode(raw)
      if not task or TERMINAL[task.status] or task.ak ~= KEYS[4] then
        redis.call('ZREM', KEYS[4], members[i])
      end
    end
    active = redis.call('ZCARD', KEYS[4])
    if active >= limit then
      return {'limit'}
    end
  end
end

-- Forget the entries of up to 4 expired tasks: one create adds one entry, so the index keeps pace with expiry
-- (list skips and removes any left over).
local stale = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. int(now), 'LIMIT', 0, 4)
if #stale > 0 then
  redis.call('ZREM', KEYS[2], unpack(stale))
  redis.call('ZREM', KEYS[3], unpack(stale))
end

-- The owner's creation order: microseconds, or one more than the newest entry, so it is strictly increasing
-- and never falls behind a cursor issued earlier.
local order = tonumber(t[1]) * 1000000 + tonumber(t[2])
local newest = redis.call('ZRANGE', KEYS[2], -1, -1)
if #newest == 1 then
  local last = tonumber(string.match(newest[1], '^(%d+):'))
  if last >= order then
    order = last + 1
  end
end
local member = string.format('%018.0f', order) .. ':' .. ARGV[8]

local task = {id = ARGV[1], owner = ARGV[2], status = 'working', created = int(now), updated = int(now),
  meta = ARGV[6], om = member, ak = KEYS[4], nq = '0'}
if ARGV[3] ~= '' then
  task.ttl = ARGV[3]
end
if ARGV[5] ~= '' then
  task.poll = ARGV[5]
end
local raw = cjson.encode(task)
if expires == '+inf' then
  redis.call('SET', KEYS[1], raw)
else
  redis.call('SET', KEYS[1], raw, 'PXAT', expires)
end

-- Index keys live as long as their longest-lived entry: forever once they hold a task without expiry. A key
-- this create makes (the order index was empty, so were the others; or the active set was) takes the task's
-- expiry; an existing one is extended only if the task outlives it (GT leaves a key without expiry alone).
local function index(key, score, value, fresh)
  redis.call('ZADD', key, score, value)
  if expires == '+inf' then
    redis.call('PERSIST', key)
  elseif fresh then
    redis.call('PEXPIREAT', key, expires)
  else
    redis.call('PEXPIREAT', key, expires, 'GT')
  end
end
index(KEYS[2], 0, member, #newest == 0)
index(KEYS[3], expires, member, #newest == 0)
index(KEYS[4], expires, ARGV[8], active == 0)

return {'ok', raw}
