/// The API description served at `GET /openapi.yaml`.
///
/// Embedded in the binary (SwiftPM `embedInCode`, from a symlink to the top-level `openapi.yaml`)
/// so the service answers it from any working directory and in the container, where the source
/// tree is absent.
public enum OpenAPIDocument {
    /// RFC 9512's registered media type for YAML.
    public static let contentType = "application/yaml"

    public static var bytes: [UInt8] { PackageResources.openapi_yaml }
}
