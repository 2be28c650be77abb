extension Completion {
    /// The bash script: the command is the first word that is not an option or a global option's
    /// value; options are completed after `-`, files elsewhere.
    static func bash() -> String {
        let cases = Tool.commandTypes.map { type in
            "        \"\(type.name)\") opts=\"\(options(of: type).joined(separator: " "))\" ;;"
        }
        return """
            # bash completion for contacts-ledger (contacts-ledger completion bash)
            _contacts_ledger() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                local cmd="" opts="" i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case "${COMP_WORDS[i]}" in
                        --ledger|--wait|--region) ((i++)) ;;
                        -*) ;;
                        group)
                            cmd="group"
                            if ((i + 1 < COMP_CWORD)); then cmd="group ${COMP_WORDS[i+1]}"; fi
                            break ;;
                        *) cmd="${COMP_WORDS[i]}"; break ;;
                    esac
                done
                case "$prev" in
                    \(pathOptions.joined(separator: "|"))) COMPREPLY=($(compgen -f -- "$cur")); return ;;
                esac
                case "$cmd" in
                    "") COMPREPLY=($(compgen -W "\(topWords.joined(separator: " ")) \(globalOptions.joined(separator: " ")) --version" -- "$cur")); return ;;
                    "group") COMPREPLY=($(compgen -W "\(groupWords.joined(separator: " "))" -- "$cur")); return ;;
                    "help") COMPREPLY=($(compgen -W "\(topWords.joined(separator: " "))" -- "$cur")); return ;;
                    "completion") COMPREPLY=($(compgen -W "\(shells.joined(separator: " "))" -- "$cur")); return ;;
            \(cases.joined(separator: "\n"))
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
            }
            complete -o filenames -F _contacts_ledger contacts-ledger

            """
    }

    /// The zsh script: works loaded from `$fpath` as `_contacts-ledger` and sourced.
    static func zsh() -> String {
        let cases = Tool.commandTypes.map { type in
            "    '\(type.name)') opts=(\(options(of: type).joined(separator: " "))) ;;"
        }
        return """
            #compdef contacts-ledger
            # zsh completion for contacts-ledger (contacts-ledger completion zsh)
            _contacts_ledger() {
              local cmd="" i=2
              local -a opts
              while (( i < CURRENT )); do
                case ${words[i]} in
                  --ledger|--wait|--region) (( i++ )) ;;
                  -*) ;;
                  group)
                    cmd=group
                    if (( i + 1 < CURRENT )); then cmd="group ${words[i+1]}"; fi
                    break ;;
                  *) cmd=${words[i]}; break ;;
                esac
                (( i++ ))
              done
              case ${words[CURRENT-1]} in
                \(pathOptions.joined(separator: "|"))) _files; return ;;
              esac
              case $cmd in
                '') compadd -- \(topWords.joined(separator: " ")) \(globalOptions.joined(separator: " ")) --version; return ;;
                group) compadd -- \(groupWords.joined(separator: " ")); return ;;
                help) compadd -- \(topWords.joined(separator: " ")); return ;;
                completion) compadd -- \(shells.joined(separator: " ")); return ;;
            \(cases.joined(separator: "\n"))
              esac
              if [[ ${words[CURRENT]} == -* ]]; then
                compadd -- $opts
              else
                _files
              fi
            }
            if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
              _contacts_ledger "$@"
            else
              compdef _contacts_ledger contacts-ledger
            fi

            """
    }

    /// The fish script: commands with their summaries, then each command's options.
    static func fish() -> String {
        var lines = [
            "# fish completion for contacts-ledger (contacts-ledger completion fish)",
            "complete -c contacts-ledger -f",
            "complete -c contacts-ledger -l version -d 'Prints the version'",
        ]
        let groupCondition = "__fish_seen_subcommand_from group"
        for word in topWords {
            let summary = Tool.commandTypes.first { $0.name == word }?.summary ?? "Changes groups and their members."
            lines.append("complete -c contacts-ledger -n __fish_use_subcommand -a \(word) -d \(quoted(summary))")
        }
        for type in Tool.commandTypes where type.name.hasPrefix("group ") {
            let word = String(type.name.dropFirst(6))
            lines.append(
                "complete -c contacts-ledger -n '\(groupCondition); and not __fish_seen_subcommand_from "
                    + "\(groupWords.joined(separator: " "))' -a \(word) -d \(quoted(type.summary))")
        }
        for type in Tool.commandTypes {
            let words = type.name.split(separator: " ")
            let condition =
                words.count == 2
                ? "\(groupCondition); and __fish_seen_subcommand_from \(words[1])"
                : "__fish_seen_subcommand_from \(words[0]); and not \(groupCondition)"
            for option in options(of: type) {
                let takesValue = valuedOptions.contains(option) ? (pathOptions.contains(option) ? " -r -F" : " -r") : ""
                lines.append("complete -c contacts-ledger -n '\(condition)' -l \(option.dropFirst(2))\(takesValue)")
            }
        }
        lines.append("complete -c contacts-ledger -n '__fish_seen_subcommand_from import' -F")
        lines.append("complete -c contacts-ledger -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fish string in single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
