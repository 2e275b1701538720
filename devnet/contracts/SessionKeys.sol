// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/core/BaseAccount.sol";
import "@account-abstraction/contracts/core/Helpers.sol";
import "@account-abstraction/contracts/core/UserOperationLib.sol";

/// @title Session keys of an Airlock smart account (the on-chain session-key validator)
/// @notice The account grants a key (a dApp's) a session: one contract, one function (or plain ETH transfers
///         with `selector == 0`), a spend limit, an ETH allowance for gas and an expiry. A user operation signed
///         by that key is valid only if every call it makes stays inside the session and within what is left
///         of the limit, and if a paymaster pays for it or its maximum cost to the account fits in what is
///         left of the gas allowance; both are counted at validation, so an operation that would exceed
///         either never runs (AA24). Once a spend limit is used up the session is over: an operation that
///         moves nothing still costs gas, which a key could otherwise burn at will.
/// @dev Storage is namespaced (ERC-7201): a 7702-delegated EOA keeps it across implementations that use
///      slot 0 for something else.
abstract contract SessionKeys {
    struct Session {
        address target;
        bytes4 selector;
        uint48 validUntil;
        uint128 limit;
        uint128 spent;
        // Wei the account may pay for the key's operations' gas, each counted at its maximum prefund. Appended,
        // so a session an earlier version stored reads as one without: a paymaster must pay for its operations.
        uint128 gasAllowance;
        uint128 gasSpent;
    }

    /// @custom:storage-location erc7201:airlock.sessionkeys
    struct SessionStorage {
        mapping(address key => Session) sessions;
    }

    // keccak256(abi.encode(uint256(keccak256("airlock.sessionkeys")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_SLOT = 0x5f7174460b8cd7ab3b82d2f3d2616c2afc33eb619ce198f95040bc03567aee00;

    // ERC-20 transfer(address,uint256) and approve(address,uint256): their amount argument is what they spend.
    bytes4 private constant TRANSFER = 0xa9059cbb;
    bytes4 private constant APPROVE = 0x095ea7b3;

    event SessionGranted(
        address indexed key, address target, bytes4 selector, uint128 limit, uint48 validUntil, uint128 gasAllowance
    );
    event SessionRevoked(address indexed key);

    error InvalidSession();

    /// @notice Grants `key` a session; granting a key again replaces its session (and resets what it spent).
    /// @param gasAllowance Wei the account may pay for the key's operations' gas in all; 0: a paymaster pays.
    function grantSession(
        address key,
        address target,
        bytes4 selector,
        uint128 limit,
        uint48 validUntil,
        uint128 gasAllowance
    ) external {
        _requireSessionAdmin();
        // validUntil 0 would read as "forever" to the EntryPoint, and marks an empty slot here.
        if (key == address(0) || target == address(0) || target == address(this) || validUntil == 0)
            revert InvalidSession();
        _sessions()[key] = Session(target, selector, validUntil, limit, 0, gasAllowance, 0);
        emit SessionGranted(key, target, selector, limit, validUntil, gasAllowance);
    }

    function revokeSession(address key) external {
        _requireSessionAdmin();
        delete _sessions()[key];
        emit SessionRevoked(key);
    }

    function sessionOf(address key) external view returns (Session memory) {
        return _sessions()[key];
    }

    /// @dev Only the account itself or its EntryPoint (an owner-signed operation): a session key's own
    ///      operations are refused at validation if they call the account, so a key can never grant or revoke.
    function _requireSessionAdmin() internal view virtual;

    /// @dev Validates an operation signed by `key` (already recovered from the signature): the packed
    ///      validation data carries the session's expiry, which the EntryPoint enforces (AA22).
    function _validateSession(PackedUserOperation calldata userOp, address key) internal returns (uint256) {
        Session storage session = _sessions()[key];
        if (session.validUntil == 0) return SIG_VALIDATION_FAILED;
        // Init code runs before validation (a factory, or EIP-7702's initialization call): the owner's to send.
        // The bare 7702 marker (at most 20 bytes) only names the delegation the op's hash covers.
        if (userOp.initCode.length > 20) return SIG_VALIDATION_FAILED;
        (bool allowed, uint256 spend) = _spendOf(session, userOp.callData);
        uint256 left = session.limit - session.spent;
        if (!allowed || spend > left || (left == 0 && session.limit != 0)) return SIG_VALIDATION_FAILED;
        uint256 gas = _prefundOf(userOp);
        if (gas > session.gasAllowance - session.gasSpent) return SIG_VALIDATION_FAILED;
        session.spent += uint128(spend);
        // Both fit: each is at most what was left of a uint128.
        if (gas != 0) session.gasSpent += uint128(gas);
        return _packValidationData(false, session.validUntil, 0);
    }

    /// @dev The most the EntryPoint can take from the account for the operation: its required prefund, every
    ///      gas limit (preVerificationGas included, charged whatever runs) times `maxFeePerGas`. The gas really
    ///      used and the unused-gas penalty never exceed it; what is left is refunded to the account's deposit,
    ///      still counted here, so the allowance bounds the account's loss whatever the bundler does. Zero when
    ///      a paymaster pays: the EntryPoint then charges its deposit, not the account's.
    function _prefundOf(PackedUserOperation calldata userOp) private view returns (uint256) {
        (uint256 verification, uint256 call) = UserOperationLib.unpackUints(userOp.accountGasLimits);
        uint256 gas = verification + call + userOp.preVerificationGas;
        if (userOp.paymasterAndData.length != 0) {
            (address paymaster, uint256 paymasterVerification, uint256 postOp) =
                UserOperationLib.unpackPaymasterStaticFields(userOp.paymasterAndData);
            // The account as its own paymaster would pay from its own deposit.
            if (paymaster != address(this)) return 0;
            gas += paymasterVerification + postOp;
        }
        return gas * UserOperationLib.unpackMaxFeePerGas(userOp);
    }

    /// @dev What the operation's calls spend, or not allowed if one leaves the session; only `execute` and
    ///      `executeBatch` are understood.
    function _spendOf(Session storage session, bytes calldata callData) private view returns (bool, uint256) {
        if (callData.length < 4) return (false, 0);
        bytes4 method = bytes4(callData[:4]);
        if (method == BaseAccount.execute.selector) {
            (address target, uint256 value, bytes memory data) = abi.decode(callData[4:], (address, uint256, bytes));
            return _spendOfCall(session, BaseAccount.Call(target, value, data));
        }
        if (method != BaseAccount.executeBatch.selector) return (false, 0);
        BaseAccount.Call[] memory calls = abi.decode(callData[4:], (BaseAccount.Call[]));
        uint256 total;
        for (uint256 i = 0; i < calls.length; i++) {
            (bool allowed, uint256 spend) = _spendOfCall(session, calls[i]);
            // Each spend is capped by the limit (uint128) below, so the sum cannot overflow.
            if (!allowed || spend > session.limit) return (false, 0);
            total += spend;
        }
        return (true, total);
    }

    function _spendOfCall(Session storage session, BaseAccount.Call memory call) private view returns (bool, uint256) {
        if (call.target != session.target || call.target == address(this)) return (false, 0);
        bytes4 selector = session.selector;
        if (selector == bytes4(0)) return (call.data.length == 0, call.value);
        if (call.data.length < 4 || bytes4(call.data) != selector) return (false, 0);
        if (selector != TRANSFER && selector != APPROVE) return (true, call.value);
        if (call.value != 0 || call.data.length < 68) return (false, 0);
        uint256 amount;
        bytes memory data = call.data;
        assembly ("memory-safe") {
            // data: length word, then the selector (4 bytes), the address word and the amount word.
            amount := mload(add(data, 68))
        }
        return (true, amount);
    }

    function _sessions() private view returns (mapping(address => Session) storage) {
        return _storage().sessions;
    }

    function _storage() private pure returns (SessionStorage storage $) {
        assembly ("memory-safe") {
            $.slot := STORAGE_SLOT
        }
    }
}
