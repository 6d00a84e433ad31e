extension FileTokenStore: CustomReflectable {
    /// The file's path; the credential in it is never read for a reflection.
    public var customMirror: Mirror {
        Mirror(self, children: ["fileURL": fileURL.path], displayStyle: .class)
    }
}
