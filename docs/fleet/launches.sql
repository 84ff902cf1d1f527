-- Launches per app version: how many, on how many devices, and from main() to the first viewDidAppear.
SELECT appVersion,
       COUNT(*) AS launches,
       COUNT(DISTINCT device) AS devices,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY mainToFirstAppearMs) AS p50Ms,
       percentile_cont(0.9) WITHIN GROUP (ORDER BY mainToFirstAppearMs) AS p90Ms,
       percentile_cont(0.99) WITHIN GROUP (ORDER BY mainToFirstAppearMs) AS p99Ms
FROM sessions
GROUP BY appVersion
ORDER BY appVersion NULLS FIRST
