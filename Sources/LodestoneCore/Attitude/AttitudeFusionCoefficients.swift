extension AttitudeFusion {
    /// The settings in the units the filter computes with (SI, radians,
    /// variances), derived once: what VQF calls coefficients, kept apart from
    /// the parameters a user sets and from the state that changes per sample.
    struct Coefficients: Sendable {
        let rateErrorSquared: Double          // variance per radian turned
        let biasNoise: Double                 // (rad/s)²/s
        let initialBiasVariance: Double       // (rad/s)²
        let accelerometerErrorSquared: Double // (m/s²)²
        let initialTiltVariance: Double       // rad²
        let motionAccelerationSquared: Double // (m/s²)²
        let tiltCorrelation: Double           // s, 2 × correlation time
        let sustainedCorrelation: Double      // s, 2 × sustained acceleration time
        let compassVariance: Double           // rad², the compass error before it is learned
        let smallestCompassVariance: Double   // rad²
        let compassLifetime: Double           // s
        let compassCorrelationAngle: Double   // rad
        let inverseCompassLifetime: Double    // 1/s
        let inverseCompassAngle: Double       // 1/rad
        let inverseCompassTime: Double        // 1/s
        let latencySquared: Double            // s²
        let steadyRateVariance: Double        // (rad/s)²
        let accelerationGateSquared: Double
        let magneticGateSquared: Double

        static let standardGravity = 9.80665

        init(_ s: Settings) {
            let r = Angle.radiansPerDegree
            rateErrorSquared = s.gyroRateError * s.gyroRateError
            biasNoise = (s.gyroBiasRandomWalk * r) * (s.gyroBiasRandomWalk * r)
            initialBiasVariance = (s.initialBiasUncertainty * r) * (s.initialBiasUncertainty * r)
            accelerometerErrorSquared = s.accelerometerError * s.accelerometerError
            let tilt = s.motionAcceleration / Self.standardGravity
            initialTiltVariance = tilt * tilt
            motionAccelerationSquared = s.motionAcceleration * s.motionAcceleration
            tiltCorrelation = 2 * s.motionCorrelationTime
            sustainedCorrelation = 2 * s.sustainedAccelerationTime
            compassVariance = (s.compassError * r) * (s.compassError * r)
            smallestCompassVariance = (s.smallestCompassError * r) * (s.smallestCompassError * r)
            compassLifetime = s.compassErrorLifetime
            compassCorrelationAngle = s.compassCorrelationAngle * r
            inverseCompassLifetime = 1 / s.compassErrorLifetime
            inverseCompassAngle = 1 / (s.compassCorrelationAngle * r)
            inverseCompassTime = 1 / s.compassCorrelationTime
            latencySquared = s.magnetometerLatency * s.magnetometerLatency
            steadyRateVariance = (s.steadyRateUncertainty * r) * (s.steadyRateUncertainty * r)
            accelerationGateSquared = s.accelerationGate * s.accelerationGate
            magneticGateSquared = s.magneticGate * s.magneticGate
        }
    }
}
