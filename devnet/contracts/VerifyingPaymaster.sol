// SPDX-License-Identifier: GPL-3.0
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/core/BasePaymaster.sol";
import "@account-abstraction/contracts/core/Helpers.sol";
import "@account-abstraction/contracts/core/UserOperationLib.sol";
import "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/// @title Verifying paymaster (EntryPoint v0.8)
/// @notice eth-infinitism's v0.7 sample ported to v0.8: it pays for an operation its off-chain signer (the API,
///         for projects whose sponsorship policy allows it) has signed.
///         paymasterAndData = paymaster (20) | pmVerificationGasLimit (16) | pmPostOpGasLimit (16)
///                          | abi.encode(uint48 validUntil, uint48 validAfter) (64) | signature (65).
///         The signature is over `toEthSignedMessageHash(getHash(userOp, validUntil, validAfter))`; `getHash` is
///         public so the signer asks the contract rather than re-implementing it.
contract VerifyingPaymaster is BasePaymaster {
    using UserOperationLib for PackedUserOperation;

    address public immutable verifyingSigner;

    uint256 private constant VALID_TIMESTAMP_OFFSET = PAYMASTER_DATA_OFFSET;
    uint256 private constant SIGNATURE_OFFSET = VALID_TIMESTAMP_OFFSET + 64;

    /// @param owner_ may withdraw the deposit and stake (the deployer, a CREATE2 proxy, could not).
    constructor(IEntryPoint entryPoint_, address verifyingSigner_, address owner_) BasePaymaster(entryPoint_) {
        verifyingSigner = verifyingSigner_;
        _transferOwnership(owner_);
    }

    /// @notice The hash the signer signs: every field of the operation but the paymaster data that carries the
    ///         signature (its gas limits are covered), bound to this chain and this paymaster.
    function getHash(PackedUserOperation calldata userOp, uint48 validUntil, uint48 validAfter)
        public
        view
        returns (bytes32)
    {
        return keccak256(
            abi.encode(
                userOp.sender,
                userOp.nonce,
                keccak256(userOp.initCode),
                keccak256(userOp.callData),
                userOp.accountGasLimits,
                uint256(bytes32(userOp.paymasterAndData[PAYMASTER_VALIDATION_GAS_OFFSET:PAYMASTER_DATA_OFFSET])),
                userOp.preVerificationGas,
                userOp.gasFees,
                block.chainid,
                address(this),
                validUntil,
                validAfter
            )
        );
    }

    /// @dev A wrong signature fails validation (AA34) rather than reverting, as simulation expects.
    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32, uint256)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        (uint48 validUntil, uint48 validAfter, bytes calldata signature) = parsePaymasterAndData(userOp.paymasterAndData);
        require(signature.length == 65, "VerifyingPaymaster: invalid signature length in paymasterAndData");
        bytes32 hash = MessageHashUtils.toEthSignedMessageHash(getHash(userOp, validUntil, validAfter));
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(hash, signature);
        bool failed = recoverError != ECDSA.RecoverError.NoError || signer != verifyingSigner;
        return ("", _packValidationData(failed, validUntil, validAfter));
    }

    function parsePaymasterAndData(bytes calldata paymasterAndData)
        public
        pure
        returns (uint48 validUntil, uint48 validAfter, bytes calldata signature)
    {
        (validUntil, validAfter) = abi.decode(paymasterAndData[VALID_TIMESTAMP_OFFSET:], (uint48, uint48));
        signature = paymasterAndData[SIGNATURE_OFFSET:];
    }
}
