/// The fixed parts of the HTML timeline report: its style sheet, its page skeleton and its script. They hold
/// nothing from the log; the renderer embeds the log's data as JSON and the script draws it.
enum HTMLTimelinePage {
    static let style: String = #"""
    body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", sans-serif; }
    """#
    static let body: String = #"""
    <h1>lctrace timeline</h1><pre id="out"></pre>
    """#
    static let script: String = #"""
    const run = JSON.parse(document.getElementById("lct-run").textContent);
    document.getElementById("out").textContent = JSON.stringify(run.summary);
    document.body.dataset.ready = "1";
    """#
}
