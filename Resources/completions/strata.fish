function __strata_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __strata_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __strata_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __strata_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __strata_parse_tokens -S
    set -l unparsed_tokens (__strata_tokens -pc)
    switch $unparsed_tokens[1]
    case 'strata'
        __strata_parse_subcommand 0 'h/help'
        switch $unparsed_tokens[1]
        case 'browse'
            __strata_parse_subcommand 1 'read-only' 'encryption-key-file=' 'h/help'
        case 'info'
            __strata_parse_subcommand 1 'json' 'encryption-key-file=' 'h/help'
        case 'space'
            __strata_parse_subcommand 1 'json' 'encryption-key-file=' 'h/help'
        case 'versions'
            __strata_parse_subcommand 1 'json' 'limit=' 'encryption-key-file=' 'h/help'
        case 'check'
            __strata_parse_subcommand 1 'json' 'encryption-key-file=' 'h/help'
        case 'compact'
            __strata_parse_subcommand 1 'online' 'json' 'encryption-key-file=' 'h/help'
        case 'copy'
            __strata_parse_subcommand 2 'output-encryption-key-file=' 'decrypt' 'skip-unreadable' 'json' 'encryption-key-file=' 'h/help'
        case 'export'
            __strata_parse_subcommand 1 'class=' 'format=' 'output=' 'encryption-key-file=' 'h/help'
        case 'import'
            __strata_parse_subcommand 2 'class=' 'format=' 'create' 'encryption-key-file=' 'h/help'
        case 'query'
            __strata_parse_subcommand 3 'json' 'limit=' 'encryption-key-file=' 'h/help'
        case 'schema'
            __strata_parse_subcommand 1 'json' 'swift' 'encryption-key-file=' 'h/help'
        case 'demo'
            __strata_parse_subcommand 1 'objects=' 'churn' 'rate=' 'seconds=' 'encryption-key-file=' 'h/help'
        case 'bench'
            __strata_parse_subcommand 0 'objects=' 'repetitions=' 'lookups=' 'commits=' 'directory=' 'notify-changes=' 'realm-core=' 'json' 'h/help'
        case 'convert'
            __strata_parse_subcommand 2 'allow-loss' 'encryption-key-file=' 'h/help'
        case 'help'
            __strata_parse_subcommand -r 1 
        end
    end
end

function __strata_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __strata_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __strata_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __strata_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__strata_tokens -p)
    if test -z "$(__strata_tokens -t)"
        set -l index (count (__strata_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'strata' -f
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'browse' -d 'Open the terminal browser (the default subcommand).'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'info' -d 'Versions, sizes, classes with counts, participants and readers.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'space' -d 'Where the bytes of the file go, and what compaction would give back.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'versions' -d 'The current version, recent commits and live readers with their pins.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'check' -d 'Check the file\'s integrity: every block reachable once or free, checksums, no overlap.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'compact' -d 'Give free space back to the file system.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'copy' -d 'Write a compacted copy of the current version to a new file (writeCopy).'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'export' -d 'Export objects as JSON (all or one class) or CSV (one class), streaming.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'import' -d 'Import a JSON array of objects or a CSV file (header row) into a class, in one transaction.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'query' -d 'Objects of a class matching a Realm Query Language predicate, as a table or JSON.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'schema' -d 'Print the schema; --swift prints Swift model definitions that open the same file.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'demo' -d 'Create the demo database; with --churn, keep committing small changes to it.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'bench' -d 'Benchmark Strata against SQLite (WAL, prepared statements) on the same data; build with -c release.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'convert' -d 'Convert a Realm file (.realm) into a new Strata file, to edit, compact and watch it.'
complete -c 'strata' -n '__strata_should_offer_completions_for_positional "strata" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata browse" read-only' -l 'read-only' -d 'Open without writing anything (edits and compaction are refused).'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata browse" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata browse" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata info" json' -l 'json' -d 'Print one JSON document.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata info" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata info" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata space" json' -l 'json' -d 'Print one JSON document.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata space" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata space" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata versions" json' -l 'json' -d 'Print one JSON document.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata versions" limit' -l 'limit' -d 'How many recent commits to list.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata versions" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata versions" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata check" json' -l 'json' -d 'Print one JSON document.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata check" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata compact" online' -l 'online' -d 'Compact online: relocate data while other processes keep the file open.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata compact" json' -l 'json' -d 'Print one JSON document.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata compact" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata compact" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata copy" output-encryption-key-file' -l 'output-encryption-key-file' -d 'Encrypt the copy with this key (64 raw bytes or 128 hex characters).' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata copy" decrypt' -l 'decrypt' -d 'Write the copy unencrypted.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata copy" skip-unreadable' -l 'skip-unreadable' -d 'When a block fails its checksum, copy object by object instead, leaving out (and listing) the objects that cannot be read; exit 3 when any were left out.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata copy" json' -l 'json' -d 'Print one JSON document.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata copy" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata copy" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata export" class' -l 'class' -d 'Export only this class.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata export" format' -l 'format' -d 'json or csv (csv needs --class; default: csv when --output ends in .csv, else json).' -rfka 'json csv'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata export" output' -l 'output' -d 'Write to this file instead of standard output (a file, or a symlink\'s target, is replaced once the export is complete, keeping its mode and owner; a FIFO or device is written to; a dangling symlink, the database, its lock file and temporaries are refused).' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata export" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata import" class' -l 'class' -d 'The class to import into.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata import" format' -l 'format' -d 'json or csv (default: from the input\'s extension, else json).' -rfka 'json csv'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata import" create' -l 'create' -d 'Create the class from the data when it does not exist (and the database file, when it does not exist).'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata import" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata query" json' -l 'json' -d 'Print a JSON array of objects (the export format).'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata query" limit' -l 'limit' -d 'At most this many objects.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata query" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata query" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata schema" json' -l 'json' -d 'Print one JSON document.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata schema" swift' -l 'swift' -d 'Print Swift model classes (Object / EmbeddedObject with @Persisted).'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata schema" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata schema" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata demo" objects' -l 'objects' -d 'Number of Event objects to create.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata demo" churn' -l 'churn' -d 'Keep committing small inserts, updates and deletes.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata demo" rate' -l 'rate' -d 'Commits per second with --churn.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata demo" seconds' -l 'seconds' -d 'Stop churning after this many seconds (default: until killed).' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata demo" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata bench" objects' -l 'objects' -d 'Objects of the bulk insert.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata bench" repetitions' -l 'repetitions' -d 'Repetitions per engine (the median is reported).' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata bench" lookups' -l 'lookups' -d 'Primary-key lookups.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata bench" commits' -l 'commits' -d 'Small durable commits.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata bench" directory' -l 'directory' -d 'Directory for the temporary files (default: the system temporary directory).' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata bench" notify-changes' -l 'notify-changes' -d 'Commits by another process in the notification workload (0: skip it).' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata bench" realm-core' -l 'realm-core' -d 'Also run realm-core\'s C++ API on the same inputs: the binary built by Sources/StrataBench/RealmCoreReference/build.sh.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata bench" json' -l 'json' -d 'Print one JSON document.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata bench" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata convert" allow-loss' -l 'allow-loss' -d 'Convert even when some values cannot be stored in a Strata file (dates outside 1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z, sets holding both 0 and -0.0, collections nested in an AnyRealmValue, maps or sets of embedded objects): they are left out and listed. Without it such a file is not converted. Every Decimal128 converts.'
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata convert" encryption-key-file' -l 'encryption-key-file' -d 'A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.' -rfka ''
complete -c 'strata' -n '__strata_should_offer_completions_for_flags_or_options "strata convert" h help' -s 'h' -l 'help' -d 'Show help information.'
