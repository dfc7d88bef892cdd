-- Settles a task that is not terminal yet with a result or an error.
-- KEYS[1] the task
-- ARGV[1] completed or failed, ARGV[2] the result JSON or '', ARGV[3] the error JSON or '', ARGV[4] 1 when there
-- is a status message, ARGV[5] the message, ARGV[6] the changes channel, ARGV[7] the task's segment
-- Returns {'missing'}, {'nop', fields...} or {'ok', fields...}.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'missing'}
end
if TERMINAL[redis.call('HGET', KEYS[1], 'status')] then
  local current = redis.call('HGETALL', KEYS[1])
  table.insert(current, 1, 'nop')
  return current
end
redis.call('HSET', KEYS[1], 'status', ARGV[1])
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'result', ARGV[2])
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'error', ARGV[3])
end
set_message(KEYS[1], ARGV[4], ARGV[5])
touch(KEYS[1], now_ms())
settle(KEYS[1], ARGV[7])
announce(ARGV[6], 'STATUS', ARGV[1], redis.call('HGET', KEYS[1], 'id'))
local changed = redis.call('HGETALL', KEYS[1])
table.insert(changed, 1, 'ok')
return changed
