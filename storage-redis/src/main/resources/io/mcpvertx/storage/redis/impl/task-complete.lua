-- Settles a task that is not terminal yet with a result or an error.
-- KEYS[1] the task
-- ARGV[1] completed or failed, ARGV[2] the result JSON or '', ARGV[3] the error JSON or '', ARGV[4] 1 when there
-- is a status message, ARGV[5] the message, ARGV[6] the changes channel, ARGV[7] the task's segment
-- Returns {'missing'}, {'nop', task JSON} or {'ok', task JSON}.
local task, raw = load(KEYS[1])
if task == nil then
  return {'missing'}
end
if TERMINAL[task.status] then
  return {'nop', raw}
end
task.status = ARGV[1]
if ARGV[2] ~= '' then
  task.result = ARGV[2]
end
if ARGV[3] ~= '' then
  task.error = ARGV[3]
end
set_message(task, ARGV[4], ARGV[5])
stamp(task)
settle(task, ARGV[7])
raw = store(KEYS[1], task)
announce(ARGV[6], 'STATUS', ARGV[1], task.id)
return {'ok', raw}
