# Homebrew formula: builds lctrace from source with the Swift toolchain (Xcode's on macOS, Homebrew's swift on
# Linux). Tap this repository and install the development head:
#
#   brew tap lctrace/lctrace https://github.com/lctrace/lctrace
#   brew install --HEAD lctrace
#
# A tagged release adds its source archive's `url` and `sha256` above `head`.
class Lctrace < Formula
  desc "Check iOS view-controller lifecycle logs against the orderings UIKit produces"
  homepage "https://github.com/lctrace/lctrace"
  head "https://github.com/lctrace/lctrace.git", branch: "main"

  depends_on xcode: ["16.0", :build]
  depends_on "pkgconf" => :build
  depends_on "pcre2"

  uses_from_macos "swift" => :build
  uses_from_macos "zlib"

  def install
    system "swift", "build", "--disable-sandbox", "--configuration", "release", "--product", "lctrace"
    bin.install ".build/release/lctrace"
    generate_completions_from_executable(bin/"lctrace", "--generate-completion-script")
  end

  test do
    (testpath/"app.log").write <<~EOS
      ViewController viewDidLoad()
      ViewController viewWillAppear(_:)
      ViewController viewDidAppear(_:)
      ViewController viewDidAppear(_:)
    EOS
    output = shell_output("#{bin}/lctrace check --no-config --fail-on never #{testpath}/app.log")
    assert_match "app.log:4: warning: [did-appear-twice] viewDidAppear on ViewController, which is already visible", output
    assert_match version.to_s, shell_output("#{bin}/lctrace --version") if build.stable?
  end
end
