import Foundation

extension QuantizedCoding {
    /// The codes of `vector`'s first ``components`` and their scale, as
    /// ``QuantizedRows/set(row:vector:)`` stores them; pure, so any thread may make them.
    func code(_ vector: UnsafePointer<Float>) -> QuantizedRows.CodedRow {
        var scale: Float = 0
        let (components, bits) = (self.components, self.bits)
        let codes = [Int8](unsafeUninitializedCapacity: bytesPerRow) { buffer, count in
            scale = QuantizedRows.code(vector, components: components, bits: bits, into: buffer.baseAddress!)
            count = buffer.count
        }
        return QuantizedRows.CodedRow(codes: codes, scale: scale)
    }
}

extension QuantizedRows {
    /// One row's codes and scale (``QuantizedCoding/code(_:)``).
    struct CodedRow: Sendable {
        var codes: [Int8]
        var scale: Float
    }

    /// Puts `coded` (from this copy's ``coding``) in `row`.
    /// - Complexity: O(components), amortised.
    mutating func set(row: Int32, coded: CodedRow) {
        precondition(coded.codes.count == bytesPerRow)
        let r = Int(row)
        let width = bytesPerRow
        if r >= scales.count {
            let grow = r - scales.count + 1
            scales.append(contentsOf: repeatElement(0, count: grow))
            codes.append(contentsOf: repeatElement(0, count: grow * width))
        }
        codes.withUnsafeMutableBufferPointer { c in
            coded.codes.withUnsafeBufferPointer { (c.baseAddress! + r * width).update(from: $0.baseAddress!, count: width) }
        }
        scales.withUnsafeMutableBufferPointer { $0[r] = coded.scale }
    }
}

extension VectorIndex {
    /// A vector as ``set(row:vector:)`` keeps it: its components at the index's precision and
    /// its codes in the quantized and re-scoring copies. Made apart from the index by a
    /// ``RowCoder`` (an upsert's preparation makes them on every core), put in place by
    /// ``set(row:coded:)``.
    struct CodedRow: Sendable {
        /// The components (`.float32`).
        var floats: [Float] = []
        /// The binary16 bit patterns of the components (`.float16`).
        var halves: [UInt16] = []
        var quantized: QuantizedRows.CodedRow?
        var rescoring: QuantizedRows.CodedRow?
    }

    /// Makes ``CodedRow``s for an index: what its ``set(row:vector:)`` would store, on any thread.
    struct RowCoder: Sendable {
        let dimension: Int
        let precision: VectorPrecision
        /// What the index's quantized and re-scoring copies code.
        let quantized: QuantizedCoding?
        let rescoring: QuantizedCoding?

        /// `vector` as the index keeps it: for `.float16`, the copies code the rounded components,
        /// as a snapshot's rows make them.
        func code(_ vector: [Float]) -> CodedRow {
            precondition(vector.count == dimension, "vector has \(vector.count) components, index has \(dimension)")
            var row = CodedRow()
            switch precision {
            case .float32:
                row.floats = vector
                vector.withUnsafeBufferPointer { v in
                    row.quantized = quantized?.code(v.baseAddress!)
                    row.rescoring = rescoring?.code(v.baseAddress!)
                }
            case .float16:
                let dimension = self.dimension
                row.halves = [UInt16](unsafeUninitializedCapacity: dimension) { h, count in
                    vector.withUnsafeBufferPointer { LinearAlgebra.toHalf($0.baseAddress!, into: h.baseAddress!, count: dimension) }
                    count = dimension
                }
                guard quantized != nil || rescoring != nil else { break }
                // The copies code the rounded vector, made in scratch space on the stack.
                withUnsafeTemporaryAllocation(of: Float.self, capacity: dimension) { v in
                    row.halves.withUnsafeBufferPointer { LinearAlgebra.fromHalf($0.baseAddress!, into: v.baseAddress!, count: dimension) }
                    row.quantized = quantized?.code(v.baseAddress!)
                    row.rescoring = rescoring?.code(v.baseAddress!)
                }
            }
            return row
        }
    }

    /// What codes rows for this index.
    var coder: RowCoder {
        RowCoder(dimension: dimension, precision: precision, quantized: quantized?.coding, rescoring: rescoring?.coding)
    }

    /// Stores `coded` (from this index's ``coder``) as `row`'s vector.
    /// - Complexity: O(dimension), amortised.
    mutating func set(row: Int32, coded: CodedRow) {
        precondition(
            (coded.quantized != nil) == (quantized != nil) && (coded.rescoring != nil) == (rescoring != nil),
            "a row coded for an index with other copies")
        let r = Int(row)
        if r >= occupied.count {
            let grow = r - occupied.count + 1
            occupied.append(contentsOf: repeatElement(false, count: grow))
            switch precision {
            case .float32: matrix.grow(to: occupied.count)
            case .float16: halves.grow(to: occupied.count)
            }
        }
        if !occupied[r] { count += 1 }
        occupied[r] = true
        let dimension = self.dimension
        switch precision {
        case .float32:
            precondition(coded.floats.count == dimension)
            matrix.withMutableRow(r) { m in coded.floats.withUnsafeBufferPointer { m.update(from: $0.baseAddress!, count: dimension) } }
        case .float16:
            precondition(coded.halves.count == dimension)
            halves.withMutableRow(r) { h in coded.halves.withUnsafeBufferPointer { h.update(from: $0.baseAddress!, count: dimension) } }
        }
        if let q = coded.quantized { quantized?.set(row: row, coded: q) }
        if let q = coded.rescoring { rescoring?.set(row: row, coded: q) }
    }
}
