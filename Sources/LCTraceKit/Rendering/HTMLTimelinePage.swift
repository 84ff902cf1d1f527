/// The fixed parts of the HTML timeline report: its style sheet, its page skeleton and its script, kept as files of
/// their own (`Resources/timeline.css`, `timeline.html`, `timeline.js`; the script's pure functions are tested with
/// Node's test runner, `Tests/TimelinePage`). They hold nothing from the log; the reporter embeds the log's data as
/// JSON and the script draws it.
///
/// The script reads the run's index (`#lct-run`) at once and a session's timeline (`#lct-session-N`) only when the
/// session is shown; it puts everything from the log in the document as text (`textContent`, `setAttribute`), never
/// as markup. Nothing is loaded from the network: the page's Content-Security-Policy allows inline style and script
/// only.
enum HTMLTimelinePage {
    static let style = text(PackageResources.timeline_css)
    static let body = text(PackageResources.timeline_html)
    static let script = text(PackageResources.timeline_js)

    /// A file of `Resources/`, embedded in the library when it is built, without the newline that ends it.
    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }
}
