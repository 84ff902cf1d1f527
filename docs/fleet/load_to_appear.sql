-- From viewDidLoad to the first viewDidAppear, per controller class, slowest at the 90th percentile first.
SELECT class,
       COUNT(*) AS instances,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY loadToFirstAppearMs) AS p50Ms,
       percentile_cont(0.9) WITHIN GROUP (ORDER BY loadToFirstAppearMs) AS p90Ms,
       percentile_cont(0.99) WITHIN GROUP (ORDER BY loadToFirstAppearMs) AS p99Ms
FROM controllers
WHERE loadToFirstAppearMs IS NOT NULL
GROUP BY class
ORDER BY p90Ms DESC, class
LIMIT 20
