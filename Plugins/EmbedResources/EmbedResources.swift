import Foundation
import PackagePlugin

/// Embeds files of the top-level `Resources/` directory into a target as a generated Swift
/// source (`<Target>Resources.files`, path → contents), so the built `strata` needs no runtime
/// lookup and works from any directory. Each target lists the parts of `Resources/` it reads.
@main
struct EmbedResources: BuildToolPlugin {
    /// The files (or directories, taken whole) of `Resources/` each target embeds.
    static let parts: [String: [String]] = [
        "StrataBrowser": ["keymap.json", "themes"],
        "StrataTooling": ["demo"],
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let parts = Self.parts[target.name] else { return [] }
        let root = context.package.directoryURL.appending(path: "Resources")
        var relativePaths: [String] = []
        for part in parts {
            let url = root.appending(path: part)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw EmbedError(message: "Resources/\(part) is missing (needed by \(target.name))")
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { !$0.hasPrefix(".") }.sorted()
                relativePaths += names.map { "\(part)/\($0)" }
            } else {
                relativePaths.append(part)
            }
        }
        let typeName = "\(target.name)Resources"
        let output = context.pluginWorkDirectoryURL.appending(path: "\(typeName).swift")
        return [.buildCommand(
            displayName: "Embedding Resources/ into \(target.name)",
            executable: try context.tool(named: "ResourceEmbedder").url,
            arguments: [output.path, typeName, root.path] + relativePaths,
            inputFiles: relativePaths.map { root.appending(path: $0) },
            outputFiles: [output]
        )]
    }
}

struct EmbedError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
