// The other processes of a whole-device log (`log show`, `log stream`, a device console): daemons and system apps
// logging around the app, far more than the app itself. None of their lines is a lifecycle callback, so a count of
// the app's lifecycle lines stays the count of the log's events.

/// Writes other processes' lines after each of the app's, so that the app's lines are about `appShare` of the log.
struct DeviceSurroundings {
    /// A process of the device: its name, pid, subsystem and category, and what it logs.
    struct Process {
        let name: String
        let pid: Int
        let subsystem: String
        let messages: [String]
    }

    static let processes: [Process] = [
        Process(name: "SpringBoard", pid: 34, subsystem: "com.apple.SpringBoard:Common", messages: [
            "Application process state changed for com.example.shop: <SBApplicationProcessState: 0x2834c1e00; taskState: Running; visibility: Foreground>",
            "[FBSceneManager] Scene update for sceneID:com.example.shop-default completed in 4.2 ms",
            "Front display did change: <SBApplication: 0x10a4f2c30; com.example.shop>",
            "SBIconView: layout pass for 24 icons took 1.1 ms",
        ]),
        Process(name: "backboardd", pid: 67, subsystem: "com.apple.backboard:touch", messages: [
            "contact 1 presence: withinRange",
            "touch 0x1044a3b10 phase: moved location: {187.5, 412}",
            "BKDisplayBrightness: set 0.62 (ramp 0.25 s)",
        ]),
        Process(name: "locationd", pid: 88, subsystem: "com.apple.locationd.Position:Position", messages: [
            "os_transaction created: (<private>) CLLM-Fence",
            "{\"msg\":\"Fused location\", \"hacc\":\"12.4\", \"lifespan\":\"-1.0\"}",
            "Client com.example.shop authorization status: 4",
        ]),
        Process(name: "runningboardd", pid: 41, subsystem: "com.apple.runningboard:assertion", messages: [
            "Acquiring assertion targeting [app<application.com.example.shop>:4410] from originator [daemon<com.apple.SpringBoard>:34]",
            "[app<application.com.example.shop>:4410] Set jetsam priority to 100 [0] flag[1]",
            "Calculated state for app: running-active (role: UserInteractiveFocal)",
        ]),
        Process(name: "kernel", pid: 0, subsystem: "com.apple.kernel:default", messages: [
            "Sandbox: ShopApp(4410) deny(1) file-read-metadata /private/var/mobile/Library/Caches",
            "memorystatus: set assertion priority(10) target ShopApp:4410",
            "AppleKeyStore: operation failed (pid: 4410 sel: 7 ret: e00002c2)",
        ]),
        Process(name: "mediaserverd", pid: 52, subsystem: "com.apple.coremedia:audio", messages: [
            "-CMSessionMgr- cmsmHandleApplicationStateChange: 'sid:0x1f0a1' ShopApp(4410) state Foreground Running",
            "AudioSessionServer: volume category Audio/Video route Speaker",
        ]),
        Process(name: "wifid", pid: 59, subsystem: "com.apple.WiFiManager:", messages: [
            "__WiFiDeviceManagerScanPreviousNetworkCallback: RSSI -54 channel 36",
            "WiFiLQA: link quality score 86 (tx 0.98 rx 0.99)",
        ]),
        Process(name: "CommCenter", pid: 81, subsystem: "com.apple.telephony:ul", messages: [
            "#I Data context activated on pdp 0, interface pdp_ip0",
            "#I Signal strength bars 3 (rsrp -98)",
        ]),
        Process(name: "symptomsd", pid: 113, subsystem: "com.apple.symptomsd:flow", messages: [
            "Data Usage for ShopApp - WiFi In/Out: 182734/40211, WWAN In/Out: 0/0",
            "NWActivity: flow 0x14 completed, 3 retransmits",
        ]),
        Process(name: "nsurlsessiond", pid: 140, subsystem: "com.apple.nsurlsessiond:background", messages: [
            "Task <7D3A>.<1> resuming, QOS(0x19) Voucher (null)",
            "BackgroundSession <3F1C> completed with 0 tasks",
        ]),
        Process(name: "assetsd", pid: 151, subsystem: "com.apple.photos.backend:Thumbnails", messages: [
            "Thumbnail request for asset 0x8c2 served from cache",
        ]),
        Process(name: "dasd", pid: 97, subsystem: "com.apple.duetactivityscheduler:scoring", messages: [
            "Activity com.apple.fetch.ShopApp: decision 0.00 (DeviceActivityPolicy: low)",
            "Trigger: com.apple.das.apppolicy.appchanged is now [com.example.shop]",
        ]),
        Process(name: "trustd", pid: 129, subsystem: "com.apple.securityd:ocsp", messages: [
            "cert[0]: revocation check cached, valid until 2024-02-10 08:00:00 +0000",
        ]),
        Process(name: "bluetoothd", pid: 73, subsystem: "com.apple.bluetooth:Server.LE.Scan", messages: [
            "Found device 4C:xx:xx:xx:32 RSSI -71 type 0x10",
            "Scan parameters: window 30 ms interval 300 ms",
        ]),
        Process(name: "UserEventAgent", pid: 24, subsystem: "com.apple.UserEventAgent:", messages: [
            "Screen lock state: unlocked",
        ]),
        Process(name: "cloudd", pid: 166, subsystem: "com.apple.cloudkit:Scheduler", messages: [
            "Scheduling operation 8F2C for container iCloud.com.example.shop in 30 s",
        ]),
    ]

    var random: SeededGenerator
    let format: Format
    /// The mean count of other processes' lines written after each of the app's.
    let meanAfterEach: Double

    /// `appShare`: the part of the log's lines that are the app's, above 0 and at most 1.
    init(random: SeededGenerator, format: Format, appShare: Double) {
        self.random = random
        self.format = format
        meanAfterEach = (1 - appShare) / appShare
    }

    /// Other processes' lines to follow an app line written at `micros`: as many as a geometric draw gives (mean
    /// `meanAfterEach`), each a microsecond or a few after the one before and before the app's next line (at least 100
    /// microseconds later).
    mutating func lines(after micros: Int64) -> [String] {
        var count = 0
        let keepGoing = meanAfterEach / (1 + meanAfterEach)
        while Double.random(in: 0..<1, using: &random) < keepGoing { count += 1 }
        var time = micros
        return (0..<count).map { _ in
            time = min(time + Int64.random(in: 0...3, using: &random), micros + 99)
            let process = DeviceSurroundings.processes[Int.random(in: 0..<DeviceSurroundings.processes.count, using: &random)]
            let thread = process.pid * 613 + Int.random(in: 0...3, using: &random)
            let header = LineHeader(format: format, process: process.name, subsystem: process.subsystem)
            let message = process.messages[Int.random(in: 0..<process.messages.count, using: &random)]
            return header.text(micros: time, pid: process.pid, thread: thread) + message
        }
    }
}
