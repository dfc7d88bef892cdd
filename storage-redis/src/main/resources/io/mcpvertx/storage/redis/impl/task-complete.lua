-- Settles a task that is not terminal yet with a result or an error.
-- KEYS[1] the task
-- ARGV[1] completed or failed, ARGV[2] the result JSON or '', ARGV[3] the error JSON or '', ARGV[4] 1 when there
-- is a status message, ARGV[5] the message, ARGV[6] the changes channel, ARGV[7] the task's segment
-- Returns {'missing'}, {'nop', fields...} or {'ok', fields...}.
local task = load(KEYS[1])
if task == nil then
  return {'missing'}
end
if TERMINAL[task.status] then
  return reply('nop', task)
end
local c = change()
set(c, 'status', ARGV[1])
if ARGV[2] ~= '' then
  set(c, 'result', ARGV[2])
end
if ARGV[3] ~= '' then
  set(c, 'error', ARGV[3])
end
set_message(c, task, ARGV[4], ARGV[5])
stamp(c, task)
settle(c, task, ARGV[7])
apply(KEYS[1], task, c)
announce(ARGV[6], 'STATUS', ARGV[1], task.id)
return reply('ok', task)
