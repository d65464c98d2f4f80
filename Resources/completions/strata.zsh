#compdef strata

__strata_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__strata_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __strata_complete "${completions[@]:0:-1}"
    fi
}

__strata_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_strata() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'browse:Open the terminal browser (the default subcommand).'
            'info:Versions, sizes, classes with counts, participants and readers.'
            'space:Where the bytes of the file go, and what compaction would give back.'
            'versions:The current version, recent commits and live readers with their pins.'
            'check:Check the file'\''s integrity: every block reachable once or free, checksums, no overlap.'
            'compact:Give free space back to the file system.'
            'copy:Write a compacted copy of the current version to a new file (writeCopy).'
            'export:Export objects as JSON (all or one class) or CSV (one class), streaming.'
            'import:Import a JSON array of objects or a CSV file (header row) into a class, in one transaction.'
            'query:Objects of a class matching a Realm Query Language predicate, as a table or JSON.'
            'schema:Print the schema; --swift prints Swift model definitions that open the same file.'
            'demo:Create the demo database; with --churn, keep committing small changes to it.'
            'bench:Benchmark Strata against SQLite (WAL, prepared statements) on the same data; build with -c release.'
            'convert:Convert a Realm file (.realm) into a new Strata file, to edit, compact and watch it.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        browse|info|space|versions|check|compact|copy|export|import|query|schema|demo|bench|convert|help)
            "_strata_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_strata_browse() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--read-only[Open without writing anything (edits and compaction are refused).]'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_info() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--json[Print one JSON document.]'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_space() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--json[Print one JSON document.]'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_versions() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--json[Print one JSON document.]'
        '--limit[How many recent commits to list.]:limit:'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_check() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--json[Print one JSON document.]'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_compact() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--online[Compact online\: relocate data while other processes keep the file open.]'
        '--json[Print one JSON document.]'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_copy() {
    local -i ret=1
    local -ar arg_specs=(
        ':source:'
        ':destination:'
        '--output-encryption-key-file[Encrypt the copy with this key (64 raw bytes or 128 hex characters).]:K2:'
        '--decrypt[Write the copy unencrypted.]'
        '--skip-unreadable[When a block fails its checksum, copy object by object instead, leaving out (and listing) the objects that cannot be read; exit 3 when any were left out.]'
        '--json[Print one JSON document.]'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_export() {
    local -i ret=1
    local -ar ___format=('json' 'csv')
    local -ar arg_specs=(
        ':file:'
        '--class[Export only this class.]:class:'
        '--format[json or csv (csv needs --class; default\: csv when --output ends in .csv, else json).]:format:{__strata_complete "${___format[@]}"}'
        '--output[Write to this file instead of standard output (a file, or a symlink'\''s target, is replaced once the export is complete, keeping its mode and owner; a FIFO or device is written to; a dangling symlink, the database, its lock file and temporaries are refused).]:output:'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_import() {
    local -i ret=1
    local -ar ___format=('json' 'csv')
    local -ar arg_specs=(
        ':file:'
        '--class[The class to import into.]:class:'
        ':input:'
        '--format[json or csv (default\: from the input'\''s extension, else json).]:format:{__strata_complete "${___format[@]}"}'
        '--create[Create the class from the data when it does not exist (and the database file, when it does not exist).]'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_query() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        ':class-name:'
        ':query:'
        '--json[Print a JSON array of objects (the export format).]'
        '--limit[At most this many objects.]:limit:'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_schema() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--json[Print one JSON document.]'
        '--swift[Print Swift model classes (Object / EmbeddedObject with @Persisted).]'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_demo() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--objects[Number of Event objects to create.]:objects:'
        '--churn[Keep committing small inserts, updates and deletes.]'
        '--rate[Commits per second with --churn.]:rate:'
        '--seconds[Stop churning after this many seconds (default\: until killed).]:seconds:'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_bench() {
    local -i ret=1
    local -ar arg_specs=(
        '--objects[Objects of the bulk insert.]:objects:'
        '--repetitions[Repetitions per engine (the median is reported).]:repetitions:'
        '--lookups[Primary-key lookups.]:lookups:'
        '--commits[Small durable commits.]:commits:'
        '--directory[Directory for the temporary files (default\: the system temporary directory).]:directory:'
        '--notify-changes[Commits by another process in the notification workload (0\: skip it).]:notify-changes:'
        '--realm-core[Also run realm-core'\''s C++ API on the same inputs\: the binary built by Sources/StrataBench/RealmCoreReference/build.sh.]:realm-core:'
        '--json[Print one JSON document.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_convert() {
    local -i ret=1
    local -ar arg_specs=(
        ':source:'
        ':destination:'
        '--allow-loss[Convert even when some values cannot be stored in a Strata file (dates outside 1677-09-21T00\:12\:43.145224192Z to 2262-04-11T23\:47\:16.854775807Z, sets holding both 0 and -0.0, collections nested in an AnyRealmValue, maps or sets of embedded objects)\: they are left out and listed. Without it such a file is not converted. Every Decimal128 converts.]'
        '--encryption-key-file[A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.]:K:'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_strata_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _strata ]]; then
    _strata "${@}"
else
    compdef _strata strata
fi
