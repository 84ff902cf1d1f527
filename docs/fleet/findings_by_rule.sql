-- Findings by rule: how many, on how many devices and logs, in how many app versions, the oldest and the newest.
SELECT rule, severity,
       COUNT(*) AS findings,
       COUNT(DISTINCT device) AS devices,
       COUNT(DISTINCT log) AS logs,
       COUNT(DISTINCT appVersion) AS appVersions,
       MIN(appVersion) AS firstVersion,
       MAX(appVersion) AS lastVersion
FROM findings
GROUP BY rule, severity
ORDER BY findings DESC, rule, severity
