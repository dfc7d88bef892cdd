-- Creates a task unless its id is taken or its owner is at the limit of active tasks.
-- KEYS[1] the task, KEYS[2] the owner's tasks in creation order, KEYS[3] the owner's entries by expiry,
-- KEYS[4] the owner's active tasks, KEYS[5] the task's abandon marker (set when the caller gave up on this create)
-- ARGV[1] id, ARGV[2] owner, ARGV[3] ttl ms or '', ARGV[4] 1 when the ttl sets a Redis expiry, ARGV[5] poll ms
-- or '', ARGV[6] metadata JSON, ARGV[7] the limit (0 for none), ARGV[8] the task's segment, ARGV[9] the key
-- prefix of tasks (prefix .. segment is a task key)
-- Returns {'ok', fields...} or {'duplicate'} or {'limit'}.
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[5]) == 1 then
  return {'duplicate'}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expires = '+inf'
if ARGV[4] == '1' then
  expires = int(now + tonumber(ARGV[3]))
end

-- Forget index entries of expired tasks (a bounded batch per create; list skips any left over).
local stale = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. int(now), 'LIMIT', 0, 100)
for i = 1, #stale do
  redis.call('ZREM', KEYS[2], stale[i])
  redis.call('ZREM', KEYS[3], stale[i])
end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. int(now))

local limit = tonumber(ARGV[7])
if limit > 0 and redis.call('ZCARD', KEYS[4]) >= limit then
  -- At the limit: make sure every entry still stands for an active task of this owner (a task key can vanish
  -- before its expiry, e.g. by eviction). Bounded by the limit.
  local members = redis.call('ZRANGE', KEYS[4], 0, -1)
  for i = 1, #members do
    local task = ARGV[9] .. members[i]
    local status = redis.call('HGET', task, 'status')
    if status == false or TERMINAL[status] or redis.call('HGET', task, 'ak') ~= KEYS[4] then
      redis.call('ZREM', KEYS[4], members[i])
    end
  end
  if redis.call('ZCARD', KEYS[4]) >= limit then
    return {'limit'}
  end
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

local fields = {'id', ARGV[1], 'owner', ARGV[2], 'status', 'working', 'created', int(now), 'updated', int(now),
  'meta', ARGV[6], 'om', member, 'ak', KEYS[4], 'nq', 0}
if ARGV[3] ~= '' then
  table.insert(fields, 'ttl')
  table.insert(fields, ARGV[3])
end
if ARGV[5] ~= '' then
  table.insert(fields, 'poll')
  table.insert(fields, ARGV[5])
end
redis.call('HSET', KEYS[1], unpack(fields))
if expires ~= '+inf' then
  redis.call('PEXPIREAT', KEYS[1], expires)
end

-- Index keys live as long as their longest-lived entry: forever once they hold a task without expiry.
local function index(key, score, value)
  local before = redis.call('PTTL', key)
  redis.call('ZADD', key, score, value)
  if expires == '+inf' then
    redis.call('PERSIST', key)
  elseif before == -2 or (before >= 0 and now + before < tonumber(expires)) then
    redis.call('PEXPIREAT', key, expires)
  end
end
index(KEYS[2], 0, member)
index(KEYS[3], expires, member)
index(KEYS[4], expires, ARGV[8])

local created = redis.call('HGETALL', KEYS[1])
table.insert(created, 1, 'ok')
return created
