-- Adds outstanding input requests to a task that is not terminal, and makes it wait for them. A key used
-- before in the task's lifetime refuses the whole call.
-- KEYS[1] the task
-- ARGV[1] 1 when there is a status message, ARGV[2] the message, ARGV[3] the changes channel,
-- ARGV[4..] pairs of key and request JSON
-- Returns {'missing'}, {'nop', fields...}, {'reused', key} or {'ok', fields...}.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'missing'}
end
local status = redis.call('HGET', KEYS[1], 'status')
if TERMINAL[status] then
  local current = redis.call('HGETALL', KEYS[1])
  table.insert(current, 1, 'nop')
  return current
end
for i = 4, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], 'u:' .. ARGV[i]) == 1 then
    return {'reused', ARGV[i]}
  end
end
local added = 0
for i = 4, #ARGV, 2 do
  redis.call('HSET', KEYS[1], 'q:' .. ARGV[i], ARGV[i + 1], 'u:' .. ARGV[i], 1)
  added = added + 1
end
redis.call('HINCRBY', KEYS[1], 'nq', added)
redis.call('HSET', KEYS[1], 'status', 'input_required')
set_message(KEYS[1], ARGV[1], ARGV[2])
touch(KEYS[1], now_ms())
local id = redis.call('HGET', KEYS[1], 'id')
announce(ARGV[3], 'INPUT_REQUESTED', 'input_required', id)
if status ~= 'input_required' then
  announce(ARGV[3], 'STATUS', 'input_required', id)
end
local changed = redis.call('HGETALL', KEYS[1])
table.insert(changed, 1, 'ok')
return changed
