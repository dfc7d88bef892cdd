-- Records responses to outstanding input requests; other keys are ignored. When nothing remains outstanding,
-- a waiting task goes back to working.
-- KEYS[1] the task
-- ARGV[1] the changes channel, ARGV[2..] pairs of key and response JSON
-- Returns {'missing'}, {'nop', fields...} or {'ok', fields...}.
local task = load(KEYS[1])
if task == nil then
  return {'missing'}
end
local status = task.status
local c = change()
local taken = 0
if not TERMINAL[status] then
  for i = 2, #ARGV, 2 do
    local request = 'q:' .. ARGV[i]
    if task[request] ~= nil then
      -- A key twice in one call counts once, as its request is answered once.
      task[request] = nil
      table.insert(c.dels, request)
      set(c, 'r:' .. ARGV[i], ARGV[i + 1])
      taken = taken + 1
    end
  end
end
if taken == 0 then
  return reply('nop', task)
end
local outstanding = (tonumber(task.nq) or 0) - taken
set(c, 'nq', int(outstanding))
local next = status
if outstanding <= 0 and status == 'input_required' then
  next = 'working'
  set(c, 'status', next)
end
stamp(c, task)
apply(KEYS[1], task, c)
announce(ARGV[1], 'INPUT_RESPONDED', next, task.id)
if next ~= status then
  announce(ARGV[1], 'STATUS', next, task.id)
end
return reply('ok', task)
