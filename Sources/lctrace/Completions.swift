import ArgumentParser

/// The completion scripts (`--generate-completion-script bash|zsh|fish`): swift-argument-parser's, with the default
/// command completed where no other command is named, as it is run most (`lctrace app.log --reporter sarif`). The
/// generated scripts complete only the command names there.
enum Completions {
    /// The shell `arguments` ask a completion script for, or nil when they ask something else.
    static func requestedShell(_ arguments: [String]) -> CompletionShell? {
        let flag = "--generate-completion-script"
        if arguments.count == 2, arguments[0] == flag { return CompletionShell(rawValue: arguments[1]) }
        if arguments.count == 1, arguments[0].hasPrefix(flag + "=") { return CompletionShell(rawValue: String(arguments[0].dropFirst(flag.count + 1))) }
        return nil
    }

    /// The script for `shell`, completing `analyze`'s options and files where the generated one offers only the
    /// command names.
    static func script(for shell: CompletionShell) -> String {
        let generated = LCTrace.completionScript(for: shell)
        let commands = LCTrace.configuration.subcommands.map { $0._commandName } + ["help"]
        switch shell {
        case .bash:
            // Past the command names: the words typed so far go back in place, and analyze completes them.
            let anchor = "        COMPREPLY+=($(compgen -W '\(commands.joined(separator: " "))' -- \"${cur}\"))\n"
            return generated.replacingOccurrences(of: anchor, with: anchor + """
                        # Anything else is the default command's: its options, their values and files.
                        unparsed_words=("${subcommand}" "${unparsed_words[@]}")
                        _lctrace_analyze

                """)
        case .zsh:
            // The first word: a command name, or the default command's option or file; later words after no command
            // name: the default command's.
            let commandAnchor = "        _describe -V subcommand subcommands && ret=0\n"
            let argumentAnchor = "            \"_lctrace_${words[1]}\" && ret=0\n            ;;\n"
            return generated
                .replacingOccurrences(of: commandAnchor, with: commandAnchor + "        _lctrace_analyze && ret=0\n")
                .replacingOccurrences(of: argumentAnchor, with: argumentAnchor + "        *)\n            _lctrace_analyze && ret=0\n            ;;\n")
        case .fish:
            // Files where no command is named, as the default command reads them.
            return generated + "complete -c 'lctrace' -n '__lctrace_should_offer_completions_for_positional \"lctrace\" -ge 1' -F\n"
        default:
            return generated
        }
    }
}
