-- Records responses to outstanding input requests; other keys are ignored. When nothing remains outstanding,
-- a waiting task goes back to working.
-- KEYS[1] the task
-- ARGV[1] the changes channel, ARGV[2..] pairs of key and response JSON
-- Returns {'missing'}, {'nop', fields...} or {'ok', fields...}.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'missing'}
end
local status = redis.call('HGET', KEYS[1], 'status')
local taken = 0
if not TERMINAL[status] then
  for i = 2, #ARGV, 2 do
    if redis.call('HDEL', KEYS[1], 'q:' .. ARGV[i]) == 1 then
      redis.call('HSET', KEYS[1], 'r:' .. ARGV[i], ARGV[i + 1])
      taken = taken + 1
    end
  end
end
if taken == 0 then
  local current = redis.call('HGETALL', KEYS[1])
  table.insert(current, 1, 'nop')
  return current
end
local outstanding = redis.call('HINCRBY', KEYS[1], 'nq', -taken)
local next = status
if outstanding <= 0 and status == 'input_required' then
  next = 'working'
  redis.call('HSET', KEYS[1], 'status', next)
end
touch(KEYS[1], now_ms())
local id = redis.call('HGET', KEYS[1], 'id')
announce(ARGV[1], 'INPUT_RESPONDED', next, id)
if next ~= status then
  announce(ARGV[1], 'STATUS', next, id)
end
local changed = redis.call('HGETALL', KEYS[1])
table.insert(changed, 1, 'ok')
return changed
