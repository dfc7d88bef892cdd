-- Moves a task to another status if its status is one of the given ones and not terminal.
-- KEYS[1] the task
-- ARGV[1] the statuses it may move from, comma-separated, ARGV[2] the status to move to, ARGV[3] 1 when there is
-- a status message, ARGV[4] the message, ARGV[5] the changes channel, ARGV[6] the task's segment
-- Returns {'missing'}, {'nop', fields...} or {'ok', fields...}.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'missing'}
end
local status = redis.call('HGET', KEYS[1], 'status')
local allowed = false
for from in string.gmatch(ARGV[1], '[^,]+') do
  if from == status then
    allowed = true
  end
end
if TERMINAL[status] or not allowed then
  local current = redis.call('HGETALL', KEYS[1])
  table.insert(current, 1, 'nop')
  return current
end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
set_message(KEYS[1], ARGV[3], ARGV[4])
touch(KEYS[1], now_ms())
if TERMINAL[ARGV[2]] then
  settle(KEYS[1], ARGV[6])
end
announce(ARGV[5], 'STATUS', ARGV[2], redis.call('HGET', KEYS[1], 'id'))
local changed = redis.call('HGETALL', KEYS[1])
table.insert(changed, 1, 'ok')
return changed
