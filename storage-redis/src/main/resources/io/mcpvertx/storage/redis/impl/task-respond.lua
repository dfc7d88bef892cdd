-- Records responses to outstanding input requests; other keys are ignored. When nothing remains outstanding,
-- a waiting task goes back to working.
-- KEYS[1] the task
-- ARGV[1] the changes channel, ARGV[2..] pairs of key and response JSON
-- Returns {'missing'}, {'nop', task JSON} or {'ok', task JSON}.
local task, raw = load(KEYS[1])
if task == nil then
  return {'missing'}
end
local status = task.status
local requests = entries(task.q)
local responses = entries(task.r)
local taken = 0
if not TERMINAL[status] then
  for i = 2, #ARGV, 2 do
    if requests[ARGV[i]] ~= nil then
      -- A key twice in one call counts once, as its request is answered once.
      requests[ARGV[i]] = nil
      responses[ARGV[i]] = ARGV[i + 1]
      taken = taken + 1
    end
  end
end
if taken == 0 then
  return {'nop', raw}
end
task.q = requests
task.r = responses
local outstanding = (tonumber(task.nq) or 0) - taken
task.nq = int(outstanding)
local next = status
if outstanding <= 0 and status == 'input_required' then
  next = 'working'
  task.status = next
end
stamp(task)
raw = store(KEYS[1], task)
announce(ARGV[1], 'INPUT_RESPONDED', next, task.id)
if next ~= status then
  announce(ARGV[1], 'STATUS', next, task.id)
end
return {'ok', raw}
