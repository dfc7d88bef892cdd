-- Records that an instance runs a task, and indexes the instance for the sweepers.
-- KEYS[1] the instance's executions, KEYS[2] the index of instances; ARGV[1] the instance's segment, ARGV[2] the task
redis.call('SADD', KEYS[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
