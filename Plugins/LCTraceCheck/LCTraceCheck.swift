import Foundation
import PackagePlugin

/// `swift package lctrace-check [check options] LOG…`: builds lctrace and runs `lctrace check` from the package's
/// folder, so that a project that depends on lctrace checks its logs without installing it. Its exit status is
/// check's (1 when a finding reaches --fail-on).
@main
struct LCTraceCheck: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "lctrace")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["check"] + arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // lctrace has said why on its standard error; its status is the command's.
        if process.terminationReason != .exit || process.terminationStatus != 0 {
            exit(process.terminationStatus == 0 ? 1 : process.terminationStatus)
        }
    }
}
