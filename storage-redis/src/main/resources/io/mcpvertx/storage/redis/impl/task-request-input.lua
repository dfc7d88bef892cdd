-- Adds outstanding input requests to a task that is not terminal, and makes it wait for them. A key used
-- before in the task's lifetime refuses the whole call.
-- KEYS[1] the task
-- ARGV[1] 1 when there is a status message, ARGV[2] the message, ARGV[3] the changes channel,
-- ARGV[4..] pairs of key and request JSON
-- Returns {'missing'}, {'nop', fields...}, {'reused', key} or {'ok', fields...}.
local task = load(KEYS[1])
if task == nil then
  return {'missing'}
end
local status = task.status
if TERMINAL[status] then
  return reply('nop', task)
end
for i = 4, #ARGV, 2 do
  if task['u:' .. ARGV[i]] ~= nil then
    return {'reused', ARGV[i]}
  end
end
local c = change()
local added = 0
for i = 4, #ARGV, 2 do
  set(c, 'q:' .. ARGV[i], ARGV[i + 1])
  set(c, 'u:' .. ARGV[i], '1')
  added = added + 1
end
set(c, 'nq', int((tonumber(task.nq) or 0) + added))
set(c, 'status', 'input_required')
set_message(c, task, ARGV[1], ARGV[2])
stamp(c, task)
apply(KEYS[1], task, c)
announce(ARGV[3], 'INPUT_REQUESTED', 'input_required', task.id)
if status ~= 'input_required' then
  announce(ARGV[3], 'STATUS', 'input_required', task.id)
end
return reply('ok', task)
