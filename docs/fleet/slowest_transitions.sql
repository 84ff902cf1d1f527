-- The slowest transitions at the 90th percentile: kind, from class, to class. Left out: what is not one UIKit
-- transition (several overlapping, one the log cut short, one no template fits), whose durations say little.
SELECT kind, fromClass, toClass,
       COUNT(*) AS transitions,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY durationMs) AS p50Ms,
       percentile_cont(0.9) WITHIN GROUP (ORDER BY durationMs) AS p90Ms,
       percentile_cont(0.99) WITHIN GROUP (ORDER BY durationMs) AS p99Ms
FROM transitions
WHERE durationMs IS NOT NULL AND kind NOT IN ('compound', 'incomplete', 'unrecognized')
GROUP BY kind, fromClass, toClass
ORDER BY p90Ms DESC, kind, fromClass NULLS FIRST, toClass NULLS FIRST
LIMIT 20
